/// The message schedule's input shared by SHA-1 and SHA-256 (FIPS 180-4 §5.1.1, §5.2.1): the message padded
/// (a one bit, zeros, its length in bits as 64 bits) and cut into 64-byte blocks, each read as sixteen
/// big-endian words.
package enum HashBlocks {
    /// Calls `block` with the sixteen words of each block of `message`, in order.
    package static func forEach(of message: [UInt8], _ block: (borrowing [UInt32]) -> Void) {
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bits = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        var words = [UInt32](repeating: 0, count: 16)
        for start in stride(from: 0, to: padded.count, by: 64) {
            for index in 0..<16 {
                let at = start + index * 4
                words[index] = UInt32(padded[at]) << 24 | UInt32(padded[at + 1]) << 16 | UInt32(padded[at + 2]) << 8 | UInt32(padded[at + 3])
            }
            block(words)
        }
    }
}
