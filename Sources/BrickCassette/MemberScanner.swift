/// Finds the values of JSON object members by name in a body's text, without parsing it into values: so that
/// a redacted body keeps every other byte as the server sent it. Text that is not JSON yields nothing.
struct MemberScanner {
    private let text: String
    private let bytes: [UInt8]

    init(_ text: String) {
        self.text = text
        bytes = Array(text.utf8)
    }

    /// The ranges (in ``text``) of the values of the members whose names, lowercased, are in `names`: a
    /// string's content between its quotes, or a number, `true`, `false` token. Objects and arrays are left
    /// as they are (their own members are looked at).
    mutating func secretValues(named names: Set<String>) -> [Range<String.Index>] {
        guard let first = bytes.firstIndex(where: { !Self.isSpace($0) }), bytes[first] == UInt8(ascii: "{") || bytes[first] == UInt8(ascii: "[") else {
            return []
        }
        var ranges: [Range<Int>] = []
        var index = first
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else {
                index += 1
                continue
            }
            guard let end = stringEnd(from: index) else { break }
            var after = end + 1
            while after < bytes.count, Self.isSpace(bytes[after]) { after += 1 }
            guard after < bytes.count, bytes[after] == UInt8(ascii: ":") else {
                index = end + 1
                continue
            }
            let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self).lowercased()
            var value = after + 1
            while value < bytes.count, Self.isSpace(bytes[value]) { value += 1 }
            index = value
            guard names.contains(name), value < bytes.count else { continue }
            if bytes[value] == UInt8(ascii: "\"") {
                guard let valueEnd = stringEnd(from: value) else { break }
                if valueEnd > value + 1 { ranges.append((value + 1)..<valueEnd) }
                index = valueEnd + 1
            } else if bytes[value] != UInt8(ascii: "{"), bytes[value] != UInt8(ascii: "[") {
                var tokenEnd = value
                while tokenEnd < bytes.count, !Self.isSpace(bytes[tokenEnd]), !",}]".utf8.contains(bytes[tokenEnd]) { tokenEnd += 1 }
                if tokenEnd > value, bytes[value] != UInt8(ascii: "n") { ranges.append(value..<tokenEnd) }  // `null` is no secret
                index = tokenEnd
            }
        }
        return ranges.map(range(of:))
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

    /// Byte offsets as indices of ``text``: offsets that fall on quotes, colons and spaces, which are whole
    /// characters in UTF-8.
    private func range(of offsets: Range<Int>) -> Range<String.Index> {
        let utf8 = text.utf8
        return utf8.index(utf8.startIndex, offsetBy: offsets.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: offsets.upperBound)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }
}
