/// A `Content-Range` value of a 206 answer: `bytes first-last/complete` (RFC 9110 §14.4), the complete
/// length `*` when unknown.
struct ContentRange: Equatable, Sendable {
    let first: Int64
    let last: Int64
    let complete: Int64?

    /// The offset just past the range's last byte.
    var end: Int64 { last + 1 }

    /// Parses `value`; `nil` for anything but a satisfied byte range.
    init?(_ value: String) {
        let trimmed = value.trimmingWhitespace
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst(6).trimmingWhitespace
        let halves = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let bounds = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first >= 0, last >= first,
            last < Int64.max  // so that `end` (last + 1) cannot overflow
        else { return nil }
        let complete: Int64?
        if halves[1] == "*" {
            complete = nil
        } else {
            guard let length = Int64(halves[1]), length > last else { return nil }
            complete = length
        }
        self.first = first
        self.last = last
        self.complete = complete
    }
}
