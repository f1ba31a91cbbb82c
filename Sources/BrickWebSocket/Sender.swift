import BrickTransport
import FoundationEssentials

/// The one place frames are written: each masked with a fresh key, data messages deflated when compression
/// was agreed, and nothing after this side's close frame (RFC 6455 §5.5.1).
actor Sender {
    let connection: any UpgradedConnection
    private let deflater: MessageDeflater?
    private(set) var closeSent = false

    init(connection: any UpgradedConnection, deflate: DeflateParameters?) {
        self.connection = connection
        deflater = deflate.flatMap(MessageDeflater.init)
    }

    /// Sends a whole message in one frame.
    func send(_ opcode: Frame.Opcode, _ payload: Data) async throws(WebSocketError) {
        guard !closeSent else { throw WebSocketError(.closed, "the connection is closing: nothing more can be sent") }
        if let deflater, !opcode.isControl {
            try await write(Frame(compressed: true, opcode: opcode, payload: deflater.deflate(payload)))
        } else {
            try await write(Frame(opcode: opcode, payload: payload))
        }
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
        do {
            try await connection.write(frame.encoded(maskedWith: UInt32.random(in: .min ... .max)))
        } catch {
            throw .lost(error)
        }
    }
}
