import FoundationEssentials

/// Why bytes are not a JSON document: what was expected, and the byte offset where it was not found.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public let reason: String
    /// Where, in bytes from the start of the document.
    public let offset: Int
    public var description: String { "\(reason) at byte \(offset)" }
}

/// Reads a JSON document (RFC 8259) into a ``JSON`` value in one pass over its bytes, keeping every
/// number's text (``JSONNumber``). Linear in the document's size; nesting deeper than ``maxDepth`` is
/// refused rather than allowed to exhaust the stack; strings must be valid UTF-8.
enum JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    static let maxDepth = 512

    static func parse(_ data: Data) throws(JSONParseError) -> JSON {
        do {
            return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws(JSONParseError) -> JSON in
                var reader = Reader(bytes: raw)
                reader.skipWhitespace()
                let value = try reader.value(depth: 0)
                reader.skipWhitespace()
                guard reader.offset == raw.count else { throw reader.error("unexpected content after the document") }
                return value
            }
        } catch let error as JSONParseError {
            throw error
        } catch {
            throw JSONParseError(reason: "\(error)", offset: 0)
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        func error(_ reason: String) -> JSONParseError { JSONParseError(reason: reason, offset: offset) }

        var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
        }

        mutating func expect(_ literal: StaticString, _ value: JSON) throws(JSONParseError) -> JSON {
            let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
            guard offset + expected.count <= bytes.count,
                expected.indices.allSatisfy({ bytes[offset + $0] == expected[$0] })
            else { throw error("expected \(literal)") }
            offset += expected.count
            return value
        }

        mutating func value(depth: Int) throws(JSONParseError) -> JSON {
            guard let byte = current else { throw error("expected a value, found the end") }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw error("expected a value")
            }
        }

        mutating func array(depth: Int) throws(JSONParseError) -> JSON {
            guard depth <= JSONParser.maxDepth else { throw error("nested deeper than \(JSONParser.maxDepth)") }
            offset += 1
            var elements: [JSON] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                offset += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ",")?: offset += 1
                case UInt8(ascii: "]")?:
                    offset += 1
                    return .array(elements)
                default: throw error("expected , or ] in an array")
                }
            }
        }

        mutating func object(depth: Int) throws(JSONParseError) -> JSON {
            guard depth <= JSONParser.maxDepth else { throw error("nested deeper than \(JSONParser.maxDepth)") }
            offset += 1
            var members: [String: JSON] = [:]
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw error("expected a member name") }
                let name = try string()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw error("expected : after a member name") }
                offset += 1
                skipWhitespace()
                members[name] = try value(depth: depth)  // a repeated name keeps its last value
                skipWhitespace()
                switch current {
                case UInt8(ascii: ",")?: offset += 1
                case UInt8(ascii: "}")?:
                    offset += 1
                    return .object(members)
                default: throw error("expected , or } in an object")
                }
            }
        }

        mutating func number() throws(JSONParseError) -> JSONNumber {
            let start = offset
            func digits(_ offset: inout Int, _ bytes: UnsafeRawBufferPointer) -> Int {
                let first = offset
                while offset < bytes.count, bytes[offset] >= UInt8(ascii: "0"), bytes[offset] <= UInt8(ascii: "9") { offset += 1 }
                return offset - first
            }
            if current == UInt8(ascii: "-") { offset += 1 }
            if current == UInt8(ascii: "0") {
                offset += 1
            } else if digits(&offset, bytes) == 0 {
                throw error("expected a digit")
            }
            if current == UInt8(ascii: ".") {
                offset += 1
                guard digits(&offset, bytes) > 0 else { throw error("expected a digit after .") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                offset += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
                guard digits(&offset, bytes) > 0 else { throw error("expected a digit in the exponent") }
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            return JSONNumber(checked: text)
        }

        mutating func string() throws(JSONParseError) -> String {
            offset += 1  // the opening quote
            let start = offset
            // The common case: no escapes, so the string is the bytes between the quotes.
            while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                guard byte >= 0x20 else { throw error("a control character in a string") }
                offset += 1
            }
            guard let stop = current else { throw error("a string without its closing quote") }
            var utf8 = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<offset]))
            if stop == UInt8(ascii: "\\") {
                while true {
                    guard let byte = current else { throw error("a string without its closing quote") }
                    if byte == UInt8(ascii: "\"") { break }
                    guard byte >= 0x20 else { throw error("a control character in a string") }
                    offset += 1
                    guard byte == UInt8(ascii: "\\") else {
                        utf8.append(byte)
                        continue
                    }
                    try escape(into: &utf8)
                }
            }
            offset += 1  // the closing quote
            guard let text = String(validating: utf8, as: UTF8.self) else {
                throw JSONParseError(reason: "a string that is not valid UTF-8", offset: start)
            }
            return text
        }

        /// Appends the character of the escape after a backslash.
        mutating func escape(into utf8: inout [UInt8]) throws(JSONParseError) {
            guard let byte = current else { throw error("a string without its closing quote") }
            offset += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {  // a high surrogate: its low half must follow
                    guard current == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
                        throw error("a lone surrogate in \\u escapes")
                    }
                    offset += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone surrogate in \\u escapes") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("a lone surrogate in \\u escapes")
                }
                guard let character = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
                utf8.append(contentsOf: String(character).utf8)
            default: throw error("an unknown escape")
            }
        }

        mutating func hex4() throws(JSONParseError) -> UInt32 {
            guard offset + 4 <= bytes.count else { throw error("a \\u escape cut short") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[offset]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw error("a \\u escape with a non-hex digit")
                }
                value = value << 4 | UInt32(digit)
                offset += 1
            }
            return value
        }
    }
}
