extension DataResponse {
    /// The call's attempts on one line: `#1 503 → waited 1.2 s → #2 200`, or `#1 connectionRefused` for an
    /// attempt that got no answer, or `#1 503 → retry not taken: budget` when the origin's retry budget
    /// refused the retry. A wait under a millisecond is left out.
    public var timeline: String { AttemptRecord.timeline(of: attempts) }
}

extension DownloadResult {
    /// The download's attempts on one line, as ``DataResponse/timeline`` writes them: `#1 connectionLost →
    /// waited 1.0 s → #2 206`.
    public var timeline: String { AttemptRecord.timeline(of: attempts) }
}

extension AttemptRecord {
    /// `attempts` on one line, with the waits between them (a wait under a millisecond left out).
    static func timeline(of attempts: [AttemptRecord]) -> String {
        var parts: [String] = []
        for (index, attempt) in attempts.enumerated() {
            if attempt.waitedBefore >= .milliseconds(1) { parts.append("waited \(attempt.waitedBefore.brief)") }
            parts.append("#\(index + 1) \(attempt.outcomeText)")
            if let notTaken = attempt.retryNotTaken { parts.append("retry not taken: \(notTaken)") }
        }
        return parts.joined(separator: " → ")
    }

    /// The status, or the failure's short name.
    var outcomeText: String {
        if let head { return "\(head.status)" }
        switch error {
        case .transport(let failure)?: return failure.kind.words
        case let error?: return error.explanation.prefix { $0 != ":" }.description
        case nil: return "no answer"
        }
    }
}
