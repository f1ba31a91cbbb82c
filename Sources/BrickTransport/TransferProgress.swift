/// How far one direction of a transfer has come: bytes so far and, when known, in all.
///
/// Download figures count body bytes as they arrive on the wire (before decompression) against the
/// response's `Content-Length`; upload figures count body bytes handed to the connection against the
/// body's length. Both restart from zero when a redirect makes libcurl send the request again.
public struct TransferProgress: Sendable, Equatable, CustomStringConvertible {
    /// Bytes transferred so far.
    public var completed: Int64
    /// Bytes expected in all, or `nil` when unknown (a chunked body, a stream of unknown length).
    public var expected: Int64?

    /// Creates a progress value; a negative or zero `expected` means unknown.
    public init(completed: Int64, expected: Int64?) {
        self.completed = completed
        self.expected = expected.flatMap { $0 > 0 ? $0 : nil }
    }

    /// `completed / expected` between 0 and 1, or `nil` when the total is unknown.
    public var fractionCompleted: Double? {
        guard let expected else { return nil }
        return min(1, Double(completed) / Double(expected))
    }

    public var description: String {
        expected.map { "\(completed)/\($0) bytes" } ?? "\(completed) bytes"
    }
}
