import FoundationEssentials

/// Checks text as it arrives, fragment by fragment (RFC 6455 §8.1: a text message that is not UTF-8 fails
/// the connection with 1007, as soon as the first bad byte is seen). The rules are RFC 3629's: no overlong
/// forms, no surrogates, nothing past U+10FFFF.
struct UTF8Validator {
    /// Continuation bytes still due for the current character.
    private var needed = 0
    /// The range the next continuation byte must fall in.
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// Whether the text so far ends between characters.
    var isAtBoundary: Bool { needed == 0 }

    /// Feeds `bytes`; `false` at the first byte no UTF-8 text may hold there.
    mutating func feed(_ bytes: Data) -> Bool {
        bytes.withUnsafeBytes { feed(UnsafeRawBufferPointer($0)) }
    }

    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            if needed == 0 {
                // Runs of ASCII eight bytes at a time.
                while index + 8 <= count, bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                }
                guard index < count else { break }
                let byte = bytes[index]
                index += 1
                switch byte {
                case 0x00...0x7F: continue
                case 0xC2...0xDF: needed = 1
                case 0xE0: (needed, lower) = (2, 0xA0)
                case 0xE1...0xEC, 0xEE, 0xEF: needed = 2
                case 0xED: (needed, upper) = (2, 0x9F)
                case 0xF0: (needed, lower) = (3, 0x90)
                case 0xF1...0xF3: needed = 3
                case 0xF4: (needed, upper) = (3, 0x8F)
                default: return false
                }
            } else {
                let byte = bytes[index]
                index += 1
                guard byte >= lower, byte <= upper else { return false }
                (lower, upper) = (0x80, 0xBF)
                needed -= 1
            }
        }
        return true
    }
}
