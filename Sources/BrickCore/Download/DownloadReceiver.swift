import FoundationEssentials

/// Takes one attempt's streamed response into a ``PartialFile``: checks the head (a resumed range must
/// start where the file ends; a full answer replaces what the file had), writes the body, and reports
/// progress over the whole file: at most every 100 ms or each whole percent, and always once complete.
struct DownloadReceiver {
    let file: PartialFile
    let validation: ResponseValidation
    let progress: (@Sendable (TransferProgress) -> Void)?
    /// The response head, once it came.
    private(set) var head: ResponseHead?
    /// Whether bytes from before were discarded because a full body came instead of the range.
    private(set) var restarted = false
    /// Whether the answer could not be used and the download must start again from the first byte.
    private(set) var mustRestart = false
    /// The file's complete length, when known.
    private var expected: Int64?
    /// The transfer's average rate (bytes per second) as its last progress report gave it.
    private var rate: Double?
    /// Where a resumed range's body must end (`Content-Range`'s last byte + 1).
    private var rangeEnd: Int64?
    /// The last report: when, at which whole percent, at how many bytes.
    private var reported: (at: ContinuousClock.Instant, percent: Int, completed: Int64)?

    /// The most error body kept for a rejected response.
    private static let errorBodyLimit = 64 << 10

    init(file: PartialFile, validation: ResponseValidation, progress: (@Sendable (TransferProgress) -> Void)?) {
        self.file = file
        self.validation = validation
        self.progress = progress
    }

    /// Consumes `stream` to its end, or until its head says the body is of no use.
    /// - Throws: ``BrickError``: the transport's error, `.validation` for a rejected head, `.file` for a
    ///   write that failed, `connectionLost` for a body that ended short.
    nonisolated(nonsending) mutating func receive(_ stream: ResponseStream) async throws(BrickError) {
        var rejection: ResponseValidationError?
        var errorBody = Data()
        do {
            events: for try await event in stream {
                switch event {
                case .head(let head):
                    self.head = head
                    if head.status == 416, try rangeWasRefused() { break events }
                    do { try validation.validate(TransportResponse(head: head)) } catch {
                        rejection = error
                        continue
                    }
                    guard try accept(head) else { break events }
                case .body(let chunk):
                    if rejection != nil {
                        errorBody.append(chunk.prefix(Self.errorBodyLimit - errorBody.count))
                        if errorBody.count >= Self.errorBodyLimit { break events }
                        continue
                    }
                    try file.write(chunk)
                    report()
                case .downloadProgress(let report):
                    rate = report.bytesPerSecond
                default: continue
                }
            }
        } catch {
            throw Self.brickError(error)
        }
        if let rejection, let head { throw .validation(rejection, response: TransportResponse(head: head, body: errorBody)) }
        if !mustRestart, let rangeEnd, file.offset != rangeEnd {
            throw .transport(TransportError(
                file.offset > rangeEnd ? .invalidResponse : .connectionLost,
                message: "the range's body ended at byte \(file.offset), not at \(rangeEnd) as Content-Range said"))
        }
        if !mustRestart, let expected, file.offset != expected {
            throw .transport(TransportError(.connectionLost, message: "the body ended after \(file.offset) of \(expected) bytes"))
        }
        if !mustRestart { report(final: true) }
    }

    /// Tells `progress` where the file stands, when 100 ms passed or another whole percent was reached since
    /// the last report, and at the end (`final`) unless the last report already said as much.
    private mutating func report(final: Bool = false) {
        guard let progress else { return }
        let now = ContinuousClock.now
        let percent = expected.map { $0 > 0 ? Int(min(100, file.offset * 100 / $0)) : 100 } ?? -1
        if let reported {
            if final ? reported.completed == file.offset : (now - reported.at < .milliseconds(100) && percent <= reported.percent) { return }
        }
        reported = (now, percent, file.offset)
        progress(TransferProgress(completed: file.offset, expected: expected, bytesPerSecond: rate))
    }

    /// A 416 to a resume: the file is already whole (its record's length), or the range no longer fits and
    /// the download starts over. `false` when the request asked for no range (then 416 is an error).
    private mutating func rangeWasRefused() throws(FileError) -> Bool {
        guard let record = file.record, file.offset > 0 else { return false }
        if let length = record.length, length == file.offset {
            expected = length
        } else {
            try file.truncate()
            mustRestart = true
        }
        return true
    }

    /// Prepares the file for the body `head` announces; `false` when that body is of no use.
    private mutating func accept(_ head: ResponseHead) throws(FileError) -> Bool {
        if head.status == 206 {
            // The range must start where the file ends, and come from the version of the resource the file
            // holds: a 206 whose validator differs would splice two versions into one file.
            let validator = ResumeRecord.validator(of: head)
            guard let range = head.headers["Content-Range"].flatMap(ContentRange.init), range.first == file.offset,
                file.resumeHeaders != nil, validator == nil || validator == file.record?.validator
            else {
                try file.truncate()
                mustRestart = true
                return false
            }
            expected = range.complete ?? file.record?.length
            rangeEnd = range.end
            try file.remember(head, length: expected)
        } else {
            if file.offset > 0 {
                try file.truncate()
                restarted = true
            }
            expected = head.headers["Content-Length"].flatMap { Int64($0.trimmingWhitespace) }
            try file.remember(head, length: expected)
        }
        report()
        return true
    }

    private static func brickError(_ error: any Error) -> BrickError {
        switch error {
        case let error as BrickError: error
        case let error as TransportError: .transport(error)
        case let error as FileError: .file(error)
        default: .interceptor(error)
        }
    }
}
