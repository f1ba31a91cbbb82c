import BrickTransport
package import FoundationEssentials

/// The task that reads the connection: frames in, whole messages out, control frames answered, and the
/// connection failed (with the close code RFC 6455 §7.4.1 gives the fault) at the first thing a peer may
/// not send.
extension WebSocketCore {
    /// A message being put together from its fragments.
    struct Assembly {
        let opcode: Frame.Opcode
        let compressed: Bool
        var data = Data()
        var text = UTF8Validator()
    }

    func readLoop(deflate: DeflateParameters?) async {
        var frames = FrameReader(maxFrameSize: options.maxFrameSize, allowsCompression: deflate != nil)
        let inflater = deflate.flatMap(MessageInflater.init)
        var current: Assembly?
        do throws(WebSocketError) {
            while true {
                let bytes: Data?
                do { bytes = try await connection.read() } catch { throw .lost(error) }
                guard let bytes else {
                    let error = WebSocketError(.connectionLost, "the server closed the connection without a close frame (1006)")
                    status.withLock { $0.peerClose = WebSocketClose(code: 1006, reason: "") }
                    return fail(error)
                }
                frames.append(bytes)
                while let frame = try frames.next() {
                    if try await handle(frame, &current, inflater) { return await closedByPeer() }
                }
            }
        } catch {
            await failSending(error)
        }
    }

    /// Handles one frame; `true` when it was the peer's close.
    private func handle(_ frame: Frame, _ current: inout Assembly?, _ inflater: MessageInflater?) async throws(WebSocketError) -> Bool {
        switch frame.opcode {
        case .ping:
            try? await sender.send(.pong, frame.payload)
        case .pong:
            answerPing(frame.payload, with: .success(()))
        case .close:
            let close = try Self.parseClose(frame.payload)
            status.withLock { $0.peerClose = close }
            // Answered before the messages end, so that a consumer that closes when they do cannot send
            // another code first.
            await sender.sendClose(code: close.code == 1005 ? nil : close.code)
            inbox.finish(.success(()))
            return true
        case .text, .binary:
            guard current == nil else { throw .protocolViolation("a new message began before the last one's final fragment") }
            current = Assembly(opcode: frame.opcode, compressed: frame.compressed)
            try append(frame, to: &current, inflater)
        case .continuation:
            guard current != nil else { throw .protocolViolation("a continuation frame came with no message to continue") }
            guard !frame.compressed else { throw .protocolViolation("a continuation frame sets RSV1") }
            try append(frame, to: &current, inflater)
        }
        guard frame.fin, !frame.opcode.isControl, let message = current else { return false }
        current = nil
        await inbox.push(try Self.finish(message, inflater, limit: options.maxMessageSize))
        return false
    }

    private func append(_ frame: Frame, to current: inout Assembly?, _ inflater: MessageInflater?) throws(WebSocketError) {
        guard var assembly = current else { return }
        current = nil  // held alone while it grows, so that appending does not copy it
        guard assembly.data.count + frame.payload.count <= options.maxMessageSize else {
            throw .tooBig("a message passes the limit of \(options.maxMessageSize) bytes (WebSocketOptions.maxMessageSize)")
        }
        if assembly.opcode == .text, !assembly.compressed, !assembly.text.feed(frame.payload) {
            throw WebSocketError(.invalidText, "a text message is not UTF-8")
        }
        assembly.data.append(frame.payload)
        current = assembly
    }

    private static func finish(_ assembly: Assembly, _ inflater: MessageInflater?, limit: Int) throws(WebSocketError) -> WebSocketMessage {
        var data = assembly.data
        var validator = assembly.text
        if assembly.compressed, let inflater {
            data = try inflater.inflate(data, limit: limit)
            validator = UTF8Validator()
            if assembly.opcode == .text, !validator.feed(data) { throw WebSocketError(.invalidText, "a text message is not UTF-8") }
        }
        guard assembly.opcode == .text else { return .binary(data) }
        guard validator.isAtBoundary else { throw WebSocketError(.invalidText, "a text message ends inside a UTF-8 character") }
        return .text(String(decoding: data, as: UTF8.self))
    }

    /// A close frame's code and reason (RFC 6455 §5.5.1): none (1005), or a code a peer may send and a
    /// UTF-8 reason.
    package static func parseClose(_ payload: Data) throws(WebSocketError) -> WebSocketClose {
        guard !payload.isEmpty else { return WebSocketClose(code: 1005, reason: "") }
        guard payload.count >= 2 else { throw .protocolViolation("a close frame carries one byte: no code fits in it") }
        let start = payload.startIndex
        let code = UInt16(payload[start]) << 8 | UInt16(payload[start + 1])
        guard WebSocketClose.isSendable(code) else { throw .protocolViolation("a close frame has the code \(code), which no peer may send") }
        let reason = payload.dropFirst(2)
        var validator = UTF8Validator()
        guard validator.feed(Data(reason)), validator.isAtBoundary else { throw WebSocketError(.invalidText, "a close frame's reason is not UTF-8") }
        return WebSocketClose(code: code, reason: String(decoding: reason, as: UTF8.self))
    }

    /// The peer closed and was answered: the server closes the TCP connection first (RFC 6455 §7.1.1), so
    /// the client waits for that, at most ``WebSocketOptions/closeTimeout``, then closes its side.
    private func closedByPeer() async {
        await drainUntilEnd(atMost: options.closeTimeout)
        connection.close()
    }

    /// Fails the connection for a fault of the peer's: the close frame with the fault's code, then the
    /// server's end awaited as after any close.
    private func failSending(_ error: WebSocketError) async {
        if error.kind != .connectionLost {
            // The fault's code goes out before the messages end with the error: a consumer that closes then
            // would otherwise send its own code first.
            await sender.sendClose(code: error.closeCode, reason: String(error.message.prefix(100)))
            inbox.finish(.failure(error))
            await drainUntilEnd(atMost: options.closeTimeout)
        }
        fail(error)
    }

    /// Reads and drops whatever comes until the peer ends the connection, or `limit`.
    private func drainUntilEnd(atMost limit: Duration) async {
        let connection = connection
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while true {
                    guard let bytes = try? await connection.read(), !bytes.isEmpty else { return }
                }
            }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }
}
