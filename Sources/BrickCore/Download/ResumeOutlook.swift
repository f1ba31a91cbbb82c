/// What a download interrupted now could expect of its next run, from what its partial file keeps beside
/// it: whether the bytes can be asked for again from where they stop, and why not.
package enum ResumeOutlook: Equatable, Sendable {
    /// The server gave a validator and said it takes byte ranges: the next run asks for the rest.
    case offered
    /// The server gave a validator but did not say whether it takes ranges: the next run asks for the rest,
    /// and starts again from the beginning if the server sends the whole body.
    case unsaid
    /// The server said it takes no ranges (`Accept-Ranges: none`): the next run most likely starts again.
    case refused
    /// The server gave no validator (`ETag` or `Last-Modified`): nothing proves the bytes kept are still the
    /// resource's, and the next run starts again from the beginning.
    case noValidator

    /// The outlook of the download to `destination` (its record `<destination>.part.json`).
    package static func of(destination: String) -> ResumeOutlook {
        guard let record = ResumeRecord.read(from: destination + ".part.json") else { return .noValidator }
        switch record.ranges {
        case true?: return .offered
        case false?: return .refused
        case nil: return .unsaid
        }
    }

    /// The outlook in words, for the line an interrupted download ends with.
    package var words: String {
        switch self {
        case .offered: "the server offers byte ranges: run the same command to resume"
        case .unsaid: "run the same command to resume (the server did not say it takes byte ranges: if it does not, the download starts again)"
        case .refused: "the server takes no byte ranges (Accept-Ranges: none): the same command will most likely start again"
        case .noValidator: "the server gave no ETag or Last-Modified to resume against: the same command starts again"
        }
    }
}
