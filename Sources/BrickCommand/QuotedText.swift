/// Text in double quotes with the escapes JSON and Swift share (`\"`, `\\`, `\n`, `\r`, `\t`), any other
/// control character written by `control`: the two languages differ only there.
enum QuotedText {
    static func quoted(_ text: String, control: (Unicode.Scalar) -> String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: result += control(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A JSON string: other control characters as `\u00XX`.
    static func json(_ text: String) -> String {
        quoted(text) { scalar in
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// A Swift string literal: other control characters as `\u{XX}`.
    static func swift(_ text: String) -> String {
        quoted(text) { "\\u{\(String($0.value, radix: 16))}" }
    }
}
