import Glibc

/// The colours of what the command prints on a terminal (ANSI escapes), or none: colour only when standard
/// output is a terminal and `NO_COLOR` is unset or empty (no-color.org), so that a pipe or a file gets plain text.
struct Palette: Sendable {
    /// What a piece of text is, which decides its colour.
    enum Role: Sendable {
        /// A status line: green for 2xx, yellow for 1xx and 3xx, red for 4xx and 5xx.
        case status(Int)
        /// The request's method and URL (`--print H`).
        case requestLine
        case fieldName, key, string, number, literal, note
    }

    let enabled: Bool

    /// The palette for standard output as it is now.
    static var forStandardOutput: Palette {
        let noColor = getenv("NO_COLOR").map { String(cString: $0) } ?? ""
        return Palette(enabled: isatty(STDOUT_FILENO) == 1 && noColor.isEmpty)
    }

    func paint(_ text: String, _ role: Role) -> String {
        enabled ? "\u{1B}[\(Self.code(role))m" + text + "\u{1B}[0m" : text
    }

    /// Bytes painted as they are (never decoded, so that what is printed is what came).
    func paint(_ bytes: ArraySlice<UInt8>, _ role: Role) -> [UInt8] {
        enabled ? Array("\u{1B}[\(Self.code(role))m".utf8) + bytes + Array("\u{1B}[0m".utf8) : Array(bytes)
    }

    private static func code(_ role: Role) -> String {
        switch role {
        case .status(let code) where (200..<300).contains(code): "1;32"
        case .status(let code) where (400..<600).contains(code): "1;31"
        case .status: "1;33"
        case .requestLine: "1"
        case .fieldName: "36"
        case .key: "34"
        case .string: "32"
        case .number: "33"
        case .literal: "35"
        case .note: "2"
        }
    }
}
