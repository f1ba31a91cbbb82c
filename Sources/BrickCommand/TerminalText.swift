/// Text from a server made safe to print on a terminal: every control character (ESC, BEL, CR, the C1
/// range) and every bidirectional override is shown as an escape (`\x1B`, `\u{202E}`) instead of being
/// written, so that no header, reason phrase or error can move the cursor, set the window title (OSC),
/// hide text, or reorder what a line shows.
enum TerminalText {
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            guard isUnsafe(scalar) else {
                shown.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            shown += scalar.value < 0x100 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{\(hex)}"
        }
        return shown
    }

    /// C0 controls but the tab, DEL, C1 controls, and the bidirectional embeddings, overrides and isolates.
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: false
        case 0x00..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }
}
