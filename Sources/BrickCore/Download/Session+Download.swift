public import FoundationEssentials

extension Session {
    /// Downloads `plan`'s request to `destination`: streamed to `<destination>.part`, resumed with a range
    /// request after a failure the retry rules allow (and in a later call, even in another process), and
    /// moved into place only when complete. A download that fails before its first byte leaves no file. One
    /// call through the session's chain, whose attempts each write what they receive (``DownloadSink``).
    func download(
        _ plan: CallPlan, to destination: String, fileMode: UInt16? = nil, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(BrickError) -> DownloadResult {
        let base = try plan.request.get()
        let file: PartialFile
        do { file = try PartialFile(destination: destination, url: base.url) } catch { throw .file(error) }
        let resumedFrom = file.offset
        let sink = DownloadSink(file: file, fileMode: fileMode, progress: progress)
        let call = try plan.call(on: self, delivery: .download(sink))
        let outcome = await call.chain.runCall(call, from: 0)
        call.enter(.finished)
        if case .failure(let error) = outcome {
            file.discardIfEmpty()
            throw error
        }
        let head = sink.finalHead ?? ResponseHead(status: 0)
        return DownloadResult(
            fileURL: URL(fileURLWithPath: destination), head: head, length: file.offset, resumedFrom: resumedFrom,
            restarted: sink.restarted,
            attempts: call.recordedAttempts ?? [AttemptRecord(request: call.lastSent, head: head, error: nil, repeatReason: nil)])
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
