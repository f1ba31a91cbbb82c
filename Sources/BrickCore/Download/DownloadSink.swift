import BrickSystem

/// What a download's attempts write into: its partial file, and what the attempts learned (whether bytes
/// from before were discarded, the head that completed it). Each attempt asks for no decoding and for the
/// range the file can resume from, then writes what arrives (``DownloadReceiver``); a range that no longer
/// fits asks the attempt loop for the attempt again, from the first byte.
final class DownloadSink: Sendable {
    let file: PartialFile
    let fileMode: UInt16?
    let progress: (@Sendable (TransferProgress) -> Void)?
    private let learned = Locked<(restarted: Bool, finalHead: ResponseHead?)>((false, nil))

    init(file: PartialFile, fileMode: UInt16?, progress: (@Sendable (TransferProgress) -> Void)?) {
        self.file = file
        self.fileMode = fileMode
        self.progress = progress
    }

    /// Whether bytes from before were discarded (a full body came instead of the range, or it restarted).
    var restarted: Bool { learned.withLock { $0.restarted } }
    /// The head of the answer that completed the file.
    var finalHead: ResponseHead? { learned.withLock { $0.finalHead } }

    /// An attempt's request: bodies stored as sent (ranges count the bytes as stored), and the range to
    /// resume from, if any.
    func prepared(_ request: TransportRequest) -> TransportRequest {
        var request = request
        request.options.automaticDecompression = false
        if let resume = file.resumeHeaders { request.headers.merge(resume) }
        return request
    }

    /// Writes an attempt's answer into the file, and completes the file when the whole body came.
    func receive(_ outcome: ResponseOutcome, _ call: Call) async -> ResponseOutcome {
        guard case .success(let response) = outcome else { return outcome }
        var receiver = DownloadReceiver(file: file, validation: call.validation, progress: progress)
        do throws(BrickError) {
            let (events, registration) = Session.events(of: response)
            try await receiver.receive(ResponseStream(events: events, registration: registration))
            let restarted = receiver.restarted || receiver.mustRestart
            learned.withLock { $0.restarted = $0.restarted || restarted }
            if receiver.mustRestart {
                call.repeatAttempt(reason: "restart: the range did not fit")
                return outcome
            }
            do throws(FileError) { try file.complete(mode: fileMode) } catch { throw BrickError.file(error) }
            learned.withLock { $0.finalHead = receiver.head }
            return outcome
        } catch {
            return .failure(error.naming(response.call ?? CallLine(call.request)))  // a download's error names its call too
        }
    }
}
