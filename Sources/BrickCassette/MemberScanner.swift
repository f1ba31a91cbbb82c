/// Finds the values of secret JSON object members in a body's text, without parsing it into values: so that
/// a redacted body keeps every other byte as the server sent it. It looks for `"name": value` wherever it
/// stands, so JSON behind a byte-order mark or an XSSI prefix (`)]}'`) is read too, and text that is not
/// JSON yields little or nothing. Linear in the text (JSON written inside strings is read again, at most
/// ``maxNesting`` deep).
struct MemberScanner {
    private let bytes: [UInt8]
    /// How deep JSON written inside a string (inside a string…) is looked into.
    static let maxNesting = 3

    init(_ text: String) { bytes = Array(text.utf8) }
    init(bytes: [UInt8]) { self.bytes = bytes }

    /// What a scan found: byte ranges of the text to replace, and the secret values found in JSON written
    /// inside string values (`"{\"access_token\":\"…\"}"`), to scrub wherever they appear.
    struct Found {
        var ranges: [Range<Int>] = []
        var nested: [String] = []
    }

    /// The values of members whose names `isSecret` judges secret: a string's content between its quotes or a
    /// number (a boolean or `null` holds no secret), and every such value inside an array or object under a
    /// secret name.
    func secretValues(isSecret: (String) -> Bool, depth: Int = 0) -> Found {
        var found = Found()
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else {
                index += 1
                continue
            }
            let start = index
            guard let end = stringEnd(from: start) else { break }
            let after = skipSpaces(from: end + 1)
            guard after < bytes.count, bytes[after] == UInt8(ascii: ":") else {
                // A string that is not a member's name: a value, which may hold JSON of its own.
                if depth < Self.maxNesting { found.nested += nested(in: (start + 1)..<end, isSecret: isSecret, depth: depth) }
                index = end + 1
                continue
            }
            let value = skipSpaces(from: after + 1)
            index = value
            guard value < bytes.count, isSecret(String(decoding: bytes[(start + 1)..<end], as: UTF8.self)) else { continue }
            switch bytes[value] {
            case UInt8(ascii: "\""):
                guard let valueEnd = stringEnd(from: value) else { return found }
                if valueEnd > value + 1 { found.ranges.append((value + 1)..<valueEnd) }
                index = valueEnd + 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let containerEnd = self.containerEnd(from: value)
                found.ranges += scalars(in: value..<containerEnd)
                index = containerEnd
            default:
                let tokenEnd = self.tokenEnd(from: value)
                if tokenEnd > value, Self.isNumberStart(bytes[value]) { found.ranges.append(value..<tokenEnd) }  // `true`, `false`, `null` are no secrets
                index = tokenEnd
            }
        }
        return found
    }

    /// The secret values of JSON written inside the string content at `range`, when it holds any.
    private func nested(in range: Range<Int>, isSecret: (String) -> Bool, depth: Int) -> [String] {
        guard bytes[range].contains(UInt8(ascii: "\\")), bytes[range].contains(UInt8(ascii: ":")) else { return [] }
        let inner = JSONString.unescaped(bytes[range])
        let scanner = MemberScanner(bytes: inner)
        let found = scanner.secretValues(isSecret: isSecret, depth: depth + 1)
        return found.ranges.map { String(decoding: inner[$0], as: UTF8.self) } + found.nested
    }

    /// The ranges of every string (but member names) and number in `span`.
    private func scalars(in span: Range<Int>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var index = span.lowerBound
        while index < span.upperBound {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                guard let end = stringEnd(from: index) else { return ranges }
                let after = skipSpaces(from: end + 1)
                let isName = after < bytes.count && bytes[after] == UInt8(ascii: ":")
                if !isName, end > index + 1 { ranges.append((index + 1)..<end) }
                index = end + 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let end = min(tokenEnd(from: index), span.upperBound)
                ranges.append(index..<end)
                index = end
            default:
                index += 1
            }
        }
        return ranges
    }

    /// The index after the bracket that closes the array or object opening at `start` (the text's end when
    /// it is not closed).
    private func containerEnd(from start: Int) -> Int {
        var depth = 0
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                guard let end = stringEnd(from: index) else { return bytes.count }
                index = end
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return index + 1 }
            default: break
            }
            index += 1
        }
        return bytes.count
    }

    /// The index of the quote that ends the string starting at `start` (a quote), escapes skipped.
    private func stringEnd(from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index
            default: index += 1
            }
        }
        return nil
    }

    private func tokenEnd(from start: Int) -> Int {
        var end = start
        while end < bytes.count, !Self.isSpace(bytes[end]), !",}]".utf8.contains(bytes[end]) { end += 1 }
        return end
    }

    private func skipSpaces(from start: Int) -> Int {
        var index = start
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        return index
    }

    private static func isNumberStart(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10 }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }
}

/// JSON's string escapes undone (`\"`, `\\`, `\/`, `\n` and the like, `\uXXXX`): what a string holds.
enum JSONString {
    static func unescaped(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < bytes.endIndex else {
                result.append(byte)
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "u"):
                guard index + 4 <= bytes.endIndex, let code = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else {
                    result.append(UInt8(ascii: "u"))
                    continue
                }
                index += 4
                result += Array(String(UnicodeScalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
            default: result.append(escape)  // `"`, `\`, `/`, and anything else as itself
            }
        }
        return result
    }
}
