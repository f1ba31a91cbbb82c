import BrickTransport
import FoundationEssentials

/// The one place frames are written: each masked with a fresh key, data messages deflated when compression
/// was agreed, and nothing after this side's close frame (RFC 6455 §5.5.1).
actor Sender {
    let connection: any UpgradedConnection
    private let deflater: MessageDeflater?
    /// ``WebSocketOptions/fragmentSize``.
    private let fragmentSize: Int?
    private(set) var closeSent = false

    init(connection: any UpgradedConnection, deflate: DeflateParameters?, fragmentSize: Int? = nil) {
        self.connection = connection
        deflater = deflate.flatMap(MessageDeflater.init)
        self.fragmentSize = fragmentSize.map { max(1, $0) }
    }

    /// Sends a whole message: in one frame, or in fragments of ``fragmentSize`` written at once (a control
    /// frame is never fragmented).
    func send(_ opcode: Frame.Opcode, _ payload: Data) async throws(WebSocketError) {
        guard !closeSent else { throw WebSocketError(.closed, "the connection is closing: nothing more can be sent") }
        let compressed = deflater != nil && !opcode.isControl
        let bytes = compressed ? deflater?.deflate(payload) ?? payload : payload
        guard let fragmentSize, !opcode.isControl, bytes.count > fragmentSize else {
            return try await write(Frame(compressed: compressed, opcode: opcode, payload: bytes))
        }
        var wire = Data(capacity: bytes.count + (bytes.count / fragmentSize + 1) * 14)
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes.index(start, offsetBy: fragmentSize, limitedBy: bytes.endIndex) ?? bytes.endIndex
            let first = start == bytes.startIndex
            let frame = Frame(fin: end == bytes.endIndex, compressed: first && compressed, opcode: first ? opcode : .continuation, payload: bytes[start..<end])
            wire.append(frame.encoded(maskedWith: UInt32.random(in: .min ... .max)))
            start = end
        }
        try await write(bytes: wire)
    }

    /// Sends this side's close frame, once: `false` when it had been sent already. A `nil` code sends an
    /// empty close (the answer to a peer's close that had none).
    @discardableResult
    func sendClose(code: UInt16?, reason: String = "") async -> Bool {
        guard !closeSent else { return false }
        closeSent = true
        var payload = Data()
        if let code {
            payload.append(UInt8(code >> 8))
            payload.append(UInt8(code & 0xFF))
            var reason = reason
            while reason.utf8.count > 123 { reason.removeLast() }  // a close frame's payload is at most 125 bytes
            payload.append(contentsOf: reason.utf8)
        }
        try? await write(Frame(opcode: .close, payload: payload))
        return true
    }

    private func write(_ frame: Frame) async throws(WebSocketError) {
        try await write(bytes: frame.encoded(maskedWith: UInt32.random(in: .min ... .max)))
    }

    private func write(bytes: Data) async throws(WebSocketError) {
        do { try await connection.write(bytes) } catch { throw .lost(error) }
    }
}
