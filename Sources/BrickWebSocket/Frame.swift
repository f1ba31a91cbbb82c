package import FoundationEssentials

/// One WebSocket frame (RFC 6455 §5.2) as read or to be written: its flags, opcode and unmasked payload.
package struct Frame: Sendable, Equatable {
    package enum Opcode: UInt8, Sendable {
        case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA

        /// Close, ping and pong: at most 125 bytes, never fragmented, allowed between a message's fragments.
        package var isControl: Bool { rawValue & 0x8 != 0 }
    }

    package var fin: Bool
    /// RSV1: on a message's first frame, "compressed" under permessage-deflate (RFC 7692).
    package var compressed: Bool
    package var opcode: Opcode
    package var payload: Data

    package init(fin: Bool = true, compressed: Bool = false, opcode: Opcode, payload: Data = Data()) {
        self.fin = fin
        self.compressed = compressed
        self.opcode = opcode
        self.payload = payload
    }

    /// The frame as a server sends it: unmasked (a test's peer).
    package func encodedUnmasked() -> Data {
        let masked = encoded(maskedWith: 0)
        // A zero key leaves the payload as it is; the mask bit and the key's four bytes come out.
        let lengthBytes = masked[1] & 0x7F == 127 ? 8 : masked[1] & 0x7F == 126 ? 2 : 0
        var bytes = Data([masked[0], masked[1] & 0x7F])
        bytes.append(masked[2..<(2 + lengthBytes)])
        bytes.append(masked[(6 + lengthBytes)...])
        return bytes
    }

    /// The frame as a client sends it: masked with `key` (RFC 6455 §5.3).
    func encoded(maskedWith key: UInt32) -> Data {
        let count = payload.count
        var bytes = Data(capacity: count + 14)
        bytes.append((fin ? 0x80 : 0) | (compressed ? 0x40 : 0) | opcode.rawValue)
        if count < 126 {
            bytes.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            bytes.append(0x80 | 126)
            bytes.append(UInt8(count >> 8))
            bytes.append(UInt8(count & 0xFF))
        } else {
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(shift))) }
        }
        let mask = [UInt8(key >> 24), UInt8((key >> 16) & 0xFF), UInt8((key >> 8) & 0xFF), UInt8(key & 0xFF)]
        bytes.append(contentsOf: mask)
        let start = bytes.count
        bytes.append(payload)
        bytes.withUnsafeMutableBytes { buffer in Masking.apply(mask, to: UnsafeMutableRawBufferPointer(rebasing: buffer[start...])) }
        return bytes
    }
}

/// XOR with a four-byte key, as masking and unmasking both are: eight bytes at a time, then the rest.
enum Masking {
    static func apply(_ key: [UInt8], to buffer: UnsafeMutableRawBufferPointer, startingAt phase: Int = 0) {
        guard !buffer.isEmpty else { return }
        var word: UInt64 = 0
        for index in 0..<8 { word |= UInt64(key[(index + phase) & 3]) << (8 * UInt64(index)) }
        let words = buffer.count / 8
        for index in 0..<words {
            let offset = index * 8
            let value = buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ word
            buffer.storeBytes(of: value, toByteOffset: offset, as: UInt64.self)
        }
        for offset in (words * 8)..<buffer.count { buffer[offset] ^= key[(offset + phase) & 3] }
    }
}
