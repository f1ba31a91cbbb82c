import BrickRequest
import FoundationEssentials

/// A JSON document laid out for reading (two-space indents), token by token: members keep their order and
/// numbers their text, so what is printed is what the server sent.
enum JSONLayout {
    /// `data` indented, or `nil` when it is not one JSON document.
    static func indented(_ data: Data) -> Data? {
        guard (try? JSON.parse(data)) != nil else { return nil }
        let bytes = [UInt8](data)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        var depth = 0
        var inString = false
        var escaped = false
        var index = 0
        func newline() {
            output.append(UInt8(ascii: "\n"))
            output += repeatElement(UInt8(ascii: " "), count: depth * 2)
        }
        func nextSignificant(after position: Int) -> UInt8? {
            var cursor = position + 1
            while cursor < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[cursor]) { cursor += 1 }
            return cursor < bytes.count ? bytes[cursor] : nil
        }
        while index < bytes.count {
            let byte = bytes[index]
            defer { index += 1 }
            if inString {
                output.append(byte)
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "\""):
                inString = true
                output.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                let closer = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if nextSignificant(after: index) == closer { continue }
                depth += 1
                newline()
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                let opener = byte == UInt8(ascii: "}") ? UInt8(ascii: "{") : UInt8(ascii: "[")
                if output.last != opener {
                    depth -= 1
                    newline()
                }
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                newline()
            case UInt8(ascii: ":"):
                output += [UInt8(ascii: ":"), UInt8(ascii: " ")]
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\n"))
        return Data(output)
    }
}
