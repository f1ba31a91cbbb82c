import FoundationEssentials

extension Session {
    /// Downloads `plan`'s request to `destination`: streamed to `<destination>.part`, resumed with a range
    /// request after a failure the retry rules allow (and in a later call, even in another process), and
    /// moved into place only when complete. A download that fails before its first byte leaves no file.
    func download(
        _ plan: DispatchPlan, to destination: String, progress: (@Sendable (TransferProgress) -> Void)?
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
                do throws(FileError) { try file.complete() } catch { throw BrickError.file(error) }
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
