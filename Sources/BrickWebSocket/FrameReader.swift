package import FoundationEssentials

/// Cuts the bytes a server sends into frames (RFC 6455 §5.2), checking what a frame alone can break:
/// a server's frame is never masked, RSV2 and RSV3 are never set (no extension here gives them a meaning),
/// RSV1 only when compression was agreed, opcodes are known ones, control frames are whole and at most
/// 125 bytes, and no frame announces more than ``maxFrameSize`` bytes — refused before anything is buffered.
/// Linear in the bytes given; holds at most one frame's bytes beyond what it has returned.
package struct FrameReader {
    let maxFrameSize: Int
    let allowsCompression: Bool
    /// Reads a client's frames instead (a test's peer): each must be masked, and is unmasked.
    let readsClientFrames: Bool
    private var buffer = Data()
    private var start = 0

    package init(maxFrameSize: Int, allowsCompression: Bool, readsClientFrames: Bool = false) {
        self.maxFrameSize = maxFrameSize
        self.allowsCompression = allowsCompression
        self.readsClientFrames = readsClientFrames
    }

    /// Adds bytes read from the connection.
    package mutating func append(_ bytes: Data) {
        if start > 0, start == buffer.count {
            buffer = bytes
            start = 0
        } else {
            if start > 64 * 1024 {
                buffer.removeSubrange(buffer.startIndex..<(buffer.startIndex + start))
                start = 0
            }
            buffer.append(bytes)
        }
    }

    /// The next whole frame, or `nil` until more bytes come.
    /// - Throws: ``WebSocketError`` (protocol error, or message too big) for a frame no peer may send.
    package mutating func next() throws(WebSocketError) -> Frame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let base = buffer.startIndex + start
        let first = buffer[base], second = buffer[base + 1]
        guard first & 0x30 == 0 else { throw .protocolViolation("a frame sets RSV2 or RSV3, which no agreed extension defines") }
        let compressed = first & 0x40 != 0
        if compressed, !allowsCompression { throw .protocolViolation("a frame sets RSV1, but no compression was agreed") }
        guard let opcode = Frame.Opcode(rawValue: first & 0x0F) else {
            throw .protocolViolation("a frame has the reserved opcode \(first & 0x0F)")
        }
        guard (second & 0x80 != 0) == readsClientFrames else {
            throw .protocolViolation(readsClientFrames ? "the client sent an unmasked frame" : "the server masked a frame (RFC 6455 §5.1)")
        }
        let maskLength = readsClientFrames ? 4 : 0
        var headerLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(buffer[base + 2]) << 8 | UInt64(buffer[base + 3])
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = 0
            for index in 2..<10 { length = length << 8 | UInt64(buffer[base + index]) }
            guard length >> 63 == 0 else { throw .protocolViolation("a frame's 64-bit length has its high bit set") }
            headerLength = 10
        }
        let fin = first & 0x80 != 0
        if opcode.isControl {
            guard fin else { throw .protocolViolation("a control frame is fragmented") }
            guard length <= 125 else { throw .protocolViolation("a control frame carries \(length) bytes (at most 125)") }
            if compressed { throw .protocolViolation("a control frame sets RSV1") }
        }
        guard length <= UInt64(maxFrameSize) else {
            throw .tooBig("a frame announces \(length) bytes, more than the limit of \(maxFrameSize) (WebSocketOptions.maxFrameSize)")
        }
        let count = Int(length)
        guard available - headerLength - maskLength >= count else { return nil }
        let payloadStart = base + headerLength + maskLength
        var payload = buffer.subdata(in: payloadStart..<(payloadStart + count))
        if readsClientFrames {
            let key = Array(buffer[(base + headerLength)..<payloadStart])
            payload.withUnsafeMutableBytes { Masking.apply(key, to: $0) }
        }
        start += headerLength + maskLength + count
        return Frame(fin: fin, compressed: compressed, opcode: opcode, payload: payload)
    }
}
