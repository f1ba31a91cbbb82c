import BrickTransport
import BrickWebSocket
import BrickSystem
import FoundationEssentials

/// The peer's end of a ``WebSocketPeer`` connection, as the client's ``UpgradedConnection``: what the
/// client writes is read as client frames (masked), what the peer sends is queued for the client's reads.
final class PeerConnection: UpgradedConnection {
    private let incoming = ByteQueue<Data>()
    let messages = ByteQueue<WebSocketMessage>()
    private let reading = Locked(FrameReader(maxFrameSize: 64 << 20, allowsCompression: false, readsClientFrames: true))
    private let closed = Locked<(failure: TransportError?, clientClose: WebSocketClose?, fragments: (Frame.Opcode, Data)?)>((nil, nil, nil))

    var clientClose: WebSocketClose? { closed.withLock { $0.clientClose } }
    /// The data frames the client sent (each fragment one).
    let dataFrames = Locked(0)

    func toClient(_ frame: Frame) { incoming.push(frame.encodedUnmasked()) }
    func toClientRaw(_ bytes: Data) { incoming.push(bytes) }

    func read() async throws(TransportError) -> Data? {
        if let failure = closed.withLock({ $0.failure }) { throw failure }
        return await incoming.next()
    }

    func write(_ bytes: Data) async throws(TransportError) {
        if let failure = closed.withLock({ $0.failure }) { throw failure }
        let frames = reading.withLock { reader -> [Frame] in
            reader.append(bytes)
            var frames: [Frame] = []
            while let frame = try? reader.next() { frames.append(frame) }
            return frames
        }
        frames.forEach(received)
    }

    /// What the peer does with a frame of the client's.
    private func received(_ frame: Frame) {
        switch frame.opcode {
        case .ping: toClient(Frame(opcode: .pong, payload: frame.payload))
        case .pong: break
        case .close:
            closed.withLock { $0.clientClose = (try? WebSocketCore.parseClose(frame.payload)) }
            toClient(Frame(opcode: .close, payload: frame.payload.prefix(2)))
            incoming.finish()
            messages.finish()
        case .text, .binary, .continuation:
            dataFrames.withLock { $0 += 1 }
            let whole = closed.withLock { state -> (Frame.Opcode, Data)? in
                var (opcode, data) = state.fragments ?? (frame.opcode, Data())
                data.append(frame.payload)
                state.fragments = frame.fin ? nil : (opcode, data)
                if frame.opcode != .continuation { opcode = frame.opcode }
                return frame.fin ? (opcode, data) : nil
            }
            if let (opcode, data) = whole {
                messages.push(opcode == .text ? .text(String(decoding: data, as: UTF8.self)) : .binary(data))
            }
        }
    }

    func close(because reason: TransportError) {
        closed.withLock { if $0.failure == nil { $0.failure = reason } }
        incoming.finish()
        messages.finish()
    }
}
