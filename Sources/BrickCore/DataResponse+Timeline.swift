extension DataResponse {
    /// The call's attempts on one line: `#1 503 → waited 1.2 s → #2 200`, or `#1 connectionRefused` for an
    /// attempt that got no answer. A wait under a millisecond is left out.
    public var timeline: String {
        var parts: [String] = []
        for (index, attempt) in attempts.enumerated() {
            if attempt.waitedBefore >= .milliseconds(1) { parts.append("waited \(attempt.waitedBefore.brief)") }
            parts.append("#\(index + 1) \(attempt.outcomeText)")
        }
        return parts.joined(separator: " → ")
    }
}

extension AttemptRecord {
    /// The status, or the failure's short name.
    var outcomeText: String {
        if let head { return "\(head.status)" }
        switch error {
        case .transport(let failure)?: return failure.kind.rawValue
        case let error?: return "\(error)".prefix { $0 != ":" }.description
        case nil: return "no answer"
        }
    }
}
