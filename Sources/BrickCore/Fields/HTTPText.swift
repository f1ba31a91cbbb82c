/// Small pieces of HTTP field syntax (RFC 9110 §5.6), shared by the header readers.
extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace), without copying.
    package var trimmingWhitespace: SubSequence {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let start = firstIndex { !isBlank($0) } ?? endIndex
        let end = lastIndex { !isBlank($0) }.map(index(after:)) ?? start
        return self[start..<end]
    }

    /// The text without the quotes of a quoted string (`"abc"` → `abc`); other text unchanged.
    package var unquoted: SubSequence {
        count >= 2 && first == "\"" && last == "\"" ? dropFirst().dropLast() : self[...]
    }
}
