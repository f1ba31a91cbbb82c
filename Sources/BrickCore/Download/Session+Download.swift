public import FoundationEssentials

extension Session {
    /// Downloads `plan`'s request to `destination`: streamed to `<destination>.part`, resumed with a range
    /// request after a failure the retry rules allow (and in a later call, even in another process), and
    /// moved into place only when complete. A download that fails before its first byte leaves no file.
    func download(
        _ plan: CallPlan, to destination: String, fileMode: UInt16? = nil, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(BrickError) -> DownloadResult {
        let base = try plan.request.get()
        let file: PartialFile
        do { file = try PartialFile(destination: destination, url: base.url) } catch { throw .file(error) }
        let resumedFrom = file.offset
        let interceptors = interceptors(for: plan)
        var restarted = false
        var finalHead: ResponseHead?
        let outcome = await runAttempts(plan.repeatPolicy, base: base) { number, previous -> Attempt in
            var request = base
            var receiver = DownloadReceiver(file: file, validation: plan.validation, progress: progress)
            do throws(BrickError) {
                request = try await adapt(interceptors, context: context(
                    for: plan, request: base, attempt: number, previousAttempts: previous))
                request.options.automaticDecompression = false  // ranges count the bytes as stored
                if let resume = file.resumeHeaders { request.headers.merge(resume) }
                try await receiver.receive(stream(request, ownerID: plan.owner))
                restarted = restarted || receiver.restarted || receiver.mustRestart
                if receiver.mustRestart {
                    return Attempt(sent: request, head: receiver.head, outcome: .again(
                        reason: "restart: the range did not fit", delay: .zero, error: nil))
                }
                do throws(FileError) { try file.complete(mode: fileMode) } catch { throw BrickError.file(error) }
                finalHead = receiver.head
                return Attempt(sent: request, head: receiver.head, outcome: .done)
            } catch {
                return Attempt(sent: request, head: receiver.head, outcome: .failed(error))
            }
        }
        if let error = outcome.error {
            file.discardIfEmpty()
            throw error
        }
        return DownloadResult(
            fileURL: URL(fileURLWithPath: destination), head: finalHead ?? ResponseHead(status: 0), length: file.offset,
            resumedFrom: resumedFrom, restarted: restarted, attempts: outcome.records)
    }
}

extension Session {
    /// Downloads `url` (absolute, or a path against the session's base URL) to the file at `destination`,
    /// as a request class's `download(to:progress:)` does: through `<destination>.part`, resumed with
    /// `Range` after a failure `retry` allows (in this call, or in a later one, even in another process), moved
    /// into place only when complete. The session's headers, options and interceptors apply; any 2xx is
    /// accepted.
    ///
    /// - Parameters:
    ///   - url: What to download.
    ///   - destination: Where the file goes; its directory must exist.
    ///   - headers: Fields of this request, under the session's.
    ///   - retry: The retry rules, also for resuming within the call. Default is ``AutoRetryConfiguration/none``.
    ///   - fileMode: The finished file's permission bits (`0o600` to keep it private). Default: what the
    ///     process's umask leaves of `0o666`, as curl and HTTPie do. The partial file is always `0o600`.
    ///   - progress: Told where the file stands: at most every 100 ms or each whole percent, and once complete.
    /// - Throws: ``BrickError``: transport and retry failures (the partial file is kept for a resume),
    ///   `.validation` for a status outside 2xx, `.file` when the file cannot be written or moved.
    public func download(
        from url: some URLConvertible, to destination: URL, headers: HTTPHeaders = [:], retry: AutoRetryConfiguration = .none,
        fileMode: UInt16? = nil, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(BrickError) -> DownloadResult {
        let request = TransportRequest(url: url.urlString, headers: headers)
        return try await download(
            plan(for: request, retry: retry, idempotency: .byMethod, validation: .successful, owner: nil), to: destination.path,
            fileMode: fileMode, progress: progress)
    }
}
