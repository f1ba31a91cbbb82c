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
    /// The average rate since this transfer began, in bytes per second (libcurl's measure), or `nil` when not
    /// measured (a stub's report).
    public var bytesPerSecond: Double?

    /// Creates a progress value; a negative or zero `expected` means unknown, a negative or non-finite rate none.
    public init(completed: Int64, expected: Int64?, bytesPerSecond: Double? = nil) {
        self.completed = completed
        self.expected = expected.flatMap { $0 > 0 ? $0 : nil }
        self.bytesPerSecond = bytesPerSecond.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }

    /// `completed / expected` between 0 and 1, or `nil` when the total is unknown.
    public var fractionCompleted: Double? {
        guard let expected else { return nil }
        return min(1, Double(completed) / Double(expected))
    }

    /// The time left at the average rate so far, or `nil` without a total or a rate.
    public var estimatedTimeRemaining: Duration? {
        guard let expected, let rate = bytesPerSecond, rate > 0 else { return nil }
        let seconds = Double(max(0, expected - completed)) / rate
        return seconds < 1e9 ? .milliseconds(Int64((seconds * 1000).rounded())) : nil
    }

    /// `12.3 MB of 100.0 MB (12%), 4.5 MB/s, 19 s left`, with what is known.
    public var description: String {
        var text = ByteCount.text(completed)
        if let expected {
            text += " of \(ByteCount.text(expected))"
            if let fraction = fractionCompleted { text += " (\(Int(fraction * 100))%)" }
        }
        if let rate = bytesPerSecond { text += ", \(ByteCount.text(Int64(min(rate, 9e18))))/s" }
        if let left = estimatedTimeRemaining, left > .zero { text += ", \(left.brief) left" }
        return text
    }
}

/// Byte counts as people read them: `512 B`, `12.3 kB`, `4.5 MB`, `1.2 GB` (powers of 1000).
package enum ByteCount {
    package static func text(_ bytes: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : "\(Duration.oneDecimal(value)) \(units[unit])"
    }
}

extension Duration {
    /// The duration as people read it: `850 µs`, `12.0 ms`, `1.2 s`, `3 min 5 s`.
    package var brief: String {
        let (seconds, attoseconds) = components
        let total = Double(seconds) + Double(attoseconds) / 1e18
        switch total {
        case ..<0.001: return "\(Int((total * 1e6).rounded())) µs"
        case ..<1: return "\(Self.oneDecimal(total * 1000)) ms"
        case ..<60: return "\(Self.oneDecimal(total)) s"
        default: return "\(Int(total) / 60) min \(Int(total) % 60) s"
        }
    }

    /// `value` with one decimal (`4.5`).
    package static func oneDecimal(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
