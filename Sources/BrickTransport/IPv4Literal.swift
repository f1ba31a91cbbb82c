/// An IPv4 address in any of the forms libcurl's URL parser reads as one (`curl_url`, which a transfer
/// connects by): one to four parts, each decimal, octal (a leading `0`) or hexadecimal (`0x`), the last
/// filling the bytes the others leave (`127.1`, `0x7f.0.0.1`, `2130706433` are all `127.0.0.1`). Code that
/// judges a host (a cookie's domain) must judge the address the transfer goes to, not the text.
package enum IPv4Literal {
    /// `host` as dotted-decimal when libcurl reads it as an IPv4 address; `nil` when it reads a name.
    package static func normalized<Host: StringProtocol>(_ host: Host) -> String? {
        let parts = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var values: [UInt64] = []
        for part in parts {
            guard let value = number(part) else { return nil }
            values.append(value)
        }
        // Every part but the last is one byte; the last fills the rest.
        let lastBits = UInt64(8 * (5 - values.count))
        guard values.dropLast().allSatisfy({ $0 <= 255 }), let last = values.last, last < (1 << lastBits) else { return nil }
        var address = last
        for (index, value) in values.dropLast().enumerated() { address |= value << UInt64(24 - 8 * index) }
        return (0..<4).map { String((address >> UInt64(24 - 8 * $0)) & 0xFF) }.joined(separator: ".")
    }

    /// One part as `strtoul` with base 0 reads it, all of it digits of its base; `nil` for anything else
    /// (empty, a sign, a stray letter, more than 64 bits).
    private static func number<Part: Collection<UInt8>>(_ part: Part) -> UInt64? {
        guard let first = part.first, (0x30...0x39).contains(first) else { return nil }
        var digits = part[...]
        var base: UInt64 = 10
        if first == 0x30, digits.count > 1 {
            digits = digits.dropFirst()
            if digits.first == UInt8(ascii: "x") || digits.first == UInt8(ascii: "X") {
                digits = digits.dropFirst()
                base = 16
                guard !digits.isEmpty else { return nil }
            } else {
                base = 8
            }
        }
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case 0x30...0x39: digit = UInt64(byte - 0x30)
            case 0x61...0x66: digit = UInt64(byte - 0x61 + 10)
            case 0x41...0x46: digit = UInt64(byte - 0x41 + 10)
            default: return nil
            }
            guard digit < base else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: base)
            guard !overflow, shifted <= UInt64.max - digit else { return nil }
            value = shifted + digit
        }
        return value
    }
}
