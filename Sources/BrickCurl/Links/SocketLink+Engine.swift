import BrickSystem
import BrickTransport
import CCurl
import FoundationEssentials

/// What the engine thread does with a link: takes the socket libcurl connected, sends what the caller
/// queued, reads until the socket has nothing more (TLS may hold bytes the socket no longer shows) or the
/// reader's room is full, and says what to poll for.
extension SocketLink {
    /// libcurl connected: the socket joins the engine's poll, and the caller waiting in ``connect()`` goes on.
    func engineConnected(socket: Int32) {
        engine.socket = socket
        let connector = shared.withLock { state in
            defer { state.connector = nil }
            return state.connector
        }
        connector?.resume(returning: .success(()))
    }

    /// Whether libcurl has connected the link.
    var engineIsConnected: Bool { engine.socket >= 0 }

    /// Sends and receives what can be, without blocking; `false` when the link broke (it has ended, and the
    /// engine takes it out).
    func engineService(scratch: UnsafeMutableRawBufferPointer) -> Bool {
        guard let handle = engine.handle?.raw, engine.socket >= 0 else { return true }
        return send(handle) && receive(handle, scratch)
    }

    /// The events to poll the socket for: input while the reader has room, output while bytes wait for it.
    var enginePollEvents: Int16 {
        let reads = shared.withLock { !$0.readingPaused && !$0.atEnd && $0.failure == nil }
        return Int16(reads ? CURL_WAIT_POLLIN : 0) | Int16(engine.wantsWrite ? CURL_WAIT_POLLOUT : 0)
    }

    private func send(_ handle: UnsafeMutableRawPointer) -> Bool {
        var sentBytes = 0
        engine.wantsWrite = false
        while true {
            if engine.sending.isEmpty {
                engine.sending = shared.withLock { state in
                    defer { state.queued = [] }
                    return state.queued
                }
                engine.sendOffset = 0
                if engine.sending.isEmpty { break }
            }
            let chunk = engine.sending[0]
            let offset = engine.sendOffset
            var sent = 0
            let code = chunk.withUnsafeBytes { bytes in
                curl_easy_send(handle, bytes.baseAddress.map { $0 + offset }, bytes.count - offset, &sent)
            }
            if code == CURLE_AGAIN {
                engine.wantsWrite = true
                break
            }
            guard code == CURLE_OK else {
                end(with: Self.failure(code, handle, sending: true))
                return false
            }
            engine.sendOffset += sent
            if engine.sendOffset == chunk.count {
                engine.sending.removeFirst()
                engine.sendOffset = 0
                sentBytes += chunk.count
            }
        }
        guard sentBytes > 0 else { return true }
        let writers = shared.withLock { state -> [Waiter<Void>] in
            state.queuedBytes -= sentBytes
            guard state.queuedBytes <= room else { return [] }
            defer { state.writers = [] }
            return state.writers
        }
        writers.forEach { $0.resume(returning: .success(())) }
        return true
    }

    private func receive(_ handle: UnsafeMutableRawPointer, _ scratch: UnsafeMutableRawBufferPointer) -> Bool {
        while shared.withLock({ !$0.readingPaused && !$0.atEnd && $0.failure == nil }) {
            var got = 0
            let code = curl_easy_recv(handle, scratch.baseAddress, scratch.count, &got)
            if code == CURLE_AGAIN { return true }
            guard code == CURLE_OK else {
                end(with: Self.failure(code, handle, sending: false))
                return false
            }
            let chunk = got == 0 ? nil : Data(bytes: scratch.baseAddress!, count: got)
            let reader = shared.withLock { state -> (Waiter<Data?>, Data?)? in
                guard let chunk else {
                    state.atEnd = true
                    defer { state.reader = nil }
                    return state.reader.map { ($0, nil) }
                }
                if let reader = state.reader, state.firstReceived == state.received.count {
                    state.reader = nil
                    return (reader, chunk)
                }
                state.received.append(chunk)
                state.receivedBytes += chunk.count
                if state.receivedBytes >= room { state.readingPaused = true }
                return nil
            }
            if let (waiter, chunk) = reader { waiter.resume(returning: .success(chunk)) }
        }
        return true
    }

    private static func failure(_ code: CURLcode, _ handle: UnsafeMutableRawPointer, sending: Bool) -> TransportError {
        let said = String(cString: curl_easy_strerror(code))
        return TransportError(
            .connectionLost, curlCode: Int(code.rawValue),
            message: "the upgraded connection broke while \(sending ? "sending" : "receiving"): \(said)")
    }
}
