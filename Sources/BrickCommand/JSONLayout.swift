import BrickRequest
import FoundationEssentials

/// A JSON document laid out for reading (two-space indents), token by token, coloured by the palette: members
/// keep their order and numbers and strings their bytes, so what is printed is what the server sent.
enum JSONLayout {
    /// `data` indented, or `nil` when it is not one JSON document.
    static func indented(_ data: Data, palette: Palette = Palette(enabled: false)) -> Data? {
        guard (try? JSON.parse(data)) != nil else { return nil }
        let bytes = [UInt8](data)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        var depth = 0
        var index = 0
        func newline() {
            output.append(UInt8(ascii: "\n"))
            output += repeatElement(UInt8(ascii: " "), count: depth * 2)
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            case UInt8(ascii: "\""):
                let end = closingQuote(bytes, from: index)
                output += palette.paint(bytes[index...end], nextSignificant(bytes, after: end) == UInt8(ascii: ":") ? .key : .string)
                index = end + 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                let closer = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if nextSignificant(bytes, after: index) != closer {
                    depth += 1
                    newline()
                }
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                let opener = byte == UInt8(ascii: "}") ? UInt8(ascii: "{") : UInt8(ascii: "[")
                if output.last != opener {
                    depth -= 1
                    newline()
                }
                output.append(byte)
                index += 1
            case UInt8(ascii: ","):
                output.append(byte)
                newline()
                index += 1
            case UInt8(ascii: ":"):
                output += [UInt8(ascii: ":"), UInt8(ascii: " ")]
                index += 1
            default:  // a number, true, false or null: up to the next structural byte or space
                var end = index
                while end < bytes.count, !isDelimiter(bytes[end]) { end += 1 }
                let isNumber = byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                output += palette.paint(bytes[index..<end], isNumber ? .number : .literal)
                index = end
            }
        }
        output.append(UInt8(ascii: "\n"))
        return Data(output)
    }

    /// The index of the quote that ends the string opened at `start` (the document was parsed, so there is one).
    private static func closingQuote(_ bytes: [UInt8], from start: Int) -> Int {
        var cursor = start + 1
        while cursor < bytes.count {
            switch bytes[cursor] {
            case UInt8(ascii: "\\"): cursor += 2
            case UInt8(ascii: "\""): return cursor
            default: cursor += 1
            }
        }
        return bytes.count - 1
    }

    private static func nextSignificant(_ bytes: [UInt8], after position: Int) -> UInt8? {
        var cursor = position + 1
        while cursor < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[cursor]) { cursor += 1 }
        return cursor < bytes.count ? bytes[cursor] : nil
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":")].contains(byte)
    }
}
