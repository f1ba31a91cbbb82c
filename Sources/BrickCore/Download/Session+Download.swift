import FoundationEssentials

extension Session {
    /// Downloads `plan`'s request to `destination`: streamed to `<destination>.part`, resumed with a range
    /// request after a failure the retry rules allow (and in a later call, even in another process), and
    /// moved into place only when complete.
    func download<Value>(
        _ plan: DispatchPlan<Value>, to destination: String, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(BrickError) -> DownloadResult {
        let base = try plan.request.get()
        let file: PartialFile
        do { file = try PartialFile(destination: destination, url: base.url) } catch { throw .file(error) }
        let resumedFrom = file.offset
        let interceptors = interceptors(for: plan)
        var retry = RetryState(base: base, clock: configuration.clock)
        var attempts: [AttemptRecord] = []
        var restarted = false
        while true {
            if plan.autoRetryConfiguration.isActive, let stop = await awaitReachableHost(plan, retry, attempts: attempts) {
                throw stop
            }
            var request = base
            var head: ResponseHead?
            do throws(BrickError) {
                request = try await adapt(interceptors, context: context(
                    for: plan, request: base, attempt: attempts.count + 1, previousAttempts: attempts))
                request.options.automaticDecompression = false  // ranges count the bytes as stored
                if let resume = file.resumeHeaders { request.headers.merge(resume) }
                var receiver = DownloadReceiver(file: file, validation: plan.validation, progress: progress)
                try await receiver.receive(stream(request, ownerID: plan.owner))
                head = receiver.head
                restarted = restarted || receiver.restarted
                if receiver.mustRestart {
                    attempts.append(AttemptRecord(request: request, head: head, error: nil, repeatReason: "restart: the range did not fit"))
                    guard attempts.count < configuration.maxAttempts else {
                        throw BrickError.interceptor(PipelineError.attemptsExhausted(attempts.count, lastReason: "restart"))
                    }
                    restarted = true
                    continue
                }
                do { try file.complete() } catch { throw BrickError.file(error) }
                attempts.append(AttemptRecord(request: request, head: head, error: nil, repeatReason: nil))
                return DownloadResult(
                    fileURL: URL(fileURLWithPath: destination), head: receiver.head ?? ResponseHead(status: 0),
                    length: file.offset, resumedFrom: resumedFrom, restarted: restarted, attempts: attempts)
            } catch {
                let failure = error
                guard !failure.isCancelled, plan.autoRetryConfiguration.isActive else {
                    attempts.append(AttemptRecord(request: request, head: head, error: failure, repeatReason: nil))
                    throw failure
                }
                let verdict = await retryVerdict(after: failure, plan, retry, attempts: attempts.count)
                if case .giveUp(let why) = verdict {
                    attempts.append(AttemptRecord(request: request, head: head, error: failure, repeatReason: nil))
                    throw retry.failure(why, error: failure, attempts: attempts)
                }
                let delay: Duration = if case .retry(let delay) = verdict { delay } else { .zero }
                attempts.append(AttemptRecord(request: request, head: head, error: failure, repeatReason: RetryState.reason(for: failure)))
                retry.retries += 1
                notify(.retrying(request: String(describing: plan.requestType), attempt: attempts.count, after: delay, failure: failure))
                guard await pause(for: delay) else { throw .transport(.cancelled) }
            }
        }
    }
}
