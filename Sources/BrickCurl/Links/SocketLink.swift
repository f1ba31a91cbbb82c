import BrickSystem
import BrickTransport
import CCurl
import FoundationEssentials

/// A connection libcurl made for an upgrade request (`CURLOPT_CONNECT_ONLY`: the route, the proxy's tunnel
/// and TLS are libcurl's), whose bytes the engine then moves itself with `curl_easy_recv` and
/// `curl_easy_send`, its socket in the engine's poll beside libcurl's own.
///
/// What the caller and the engine hand each other (received bytes, bytes to send, who waits) is ``Shared``,
/// behind ``shared``'s lock; the engine's own part (the handle, the socket, the bytes being sent) is reached
/// through ``engine`` only, which checks, in release builds too, that it runs on the engine thread. Hence
/// `@unchecked Sendable`.
final class SocketLink: UpgradedConnection, @unchecked Sendable {
    typealias Waiter<Value> = UnsafeContinuation<Result<Value, TransportError>, Never>

    struct Shared {
        /// Bytes read and not yet taken by ``read()``, oldest first from `firstReceived`.
        var received: [Data] = []
        var firstReceived = 0
        var receivedBytes = 0
        var reader: Waiter<Data?>?
        /// The engine stopped reading because ``room`` was full; the next ``read()`` that makes room wakes it.
        var readingPaused = false
        /// The peer closed its side: what was received is read, then `nil`.
        var atEnd = false
        /// Why the link ended (closed by the caller, broken): every later call fails with it.
        var failure: TransportError?
        /// Bytes the caller queued and the engine has not taken yet.
        var queued: [Data] = []
        var queuedBytes = 0
        /// Writers waiting for the queue to fall under ``room``.
        var writers: [Waiter<Void>] = []
        var connector: Waiter<Void>?
    }

    /// The engine thread's part.
    struct EngineSide {
        var handle: EasyHandle?
        var socket: Int32 = -1
        /// The chunk being sent, and how much of it went out.
        var sending: [Data] = []
        var sendOffset = 0
        /// `curl_easy_send` said the socket was full: poll for room to write.
        var wantsWrite = false
    }

    let request: TransportRequest
    /// Held so that the engine (which ends with its transport) outlives the link: a WebSocket keeps working
    /// after the session that opened it is gone.
    let transport: CurlTransport
    let engineThread: EngineThread
    let mailbox: EngineMailbox
    /// How many bytes may wait in each direction before the other side waits (the request's stream buffer).
    let room: Int
    let shared = Locked(Shared())
    @exclusivity(unchecked) private var engineSide = EngineSide()

    init(request: TransportRequest, transport: CurlTransport) {
        self.request = request
        self.transport = transport
        engineThread = transport.engine.engineThread
        mailbox = transport.engine.mailbox
        room = max(16 * 1024, request.options.streamBufferSize)
    }

    /// The engine's part; every access checks that it runs on the engine thread.
    var engine: EngineSide {
        _read {
            precondition(engineThread.isCurrent, "a link's engine side is touched on its engine thread only")
            yield engineSide
        }
        _modify {
            precondition(engineThread.isCurrent, "a link's engine side is touched on its engine thread only")
            yield &engineSide
        }
    }

    /// Asks the engine to connect, and waits until libcurl has (or could not).
    func connect() async throws(TransportError) {
        let outcome: Result<Void, TransportError> = await withTaskCancellationHandler {
            await withUnsafeContinuation { waiter in
                let refused = shared.withLock { state -> TransportError? in
                    if let failure = state.failure { return failure }
                    state.connector = waiter
                    return nil
                }
                if let refused { return waiter.resume(returning: .failure(refused)) }
                if !mailbox.post(.link(self, .connect)) { close(because: Self.shutDown) }
            }
        } onCancel: {
            close(because: .cancelled)
        }
        try outcome.get()
    }

    func read() async throws(TransportError) -> Data? {
        let outcome: Result<Data?, TransportError> = await withTaskCancellationHandler {
            await withUnsafeContinuation { waiter in
                let (ready, wake) = shared.withLock { state -> (Result<Data?, TransportError>?, Bool) in
                    if state.firstReceived < state.received.count {
                        let chunk = state.received[state.firstReceived]
                        state.firstReceived += 1
                        if state.firstReceived == state.received.count {
                            state.received.removeAll(keepingCapacity: true)
                            state.firstReceived = 0
                        }
                        state.receivedBytes -= chunk.count
                        let wake = state.readingPaused && state.receivedBytes < room
                        if wake { state.readingPaused = false }
                        return (.success(chunk), wake)
                    }
                    if let failure = state.failure { return (.failure(failure), false) }
                    if state.atEnd { return (.success(nil), false) }
                    state.reader = waiter
                    return (nil, false)
                }
                if wake { mailbox.post(.link(self, .wake)) }
                if let ready { waiter.resume(returning: ready) }
            }
        } onCancel: {
            close(because: .cancelled)
        }
        return try outcome.get()
    }

    /// Puts `bytes` back before whatever was received after them: the bytes that came in with the head of
    /// the answer, for the next ``read()``.
    func pushBack(_ bytes: Data) {
        shared.withLock { state in
            state.received.insert(bytes, at: state.firstReceived)
            state.receivedBytes += bytes.count
        }
    }

    func write(_ bytes: Data) async throws(TransportError) {
        guard !bytes.isEmpty else { return }
        let outcome: Result<Void, TransportError> = await withUnsafeContinuation { waiter in
            let (done, wake) = shared.withLock { state -> (Result<Void, TransportError>?, Bool) in
                if let failure = state.failure { return (.failure(failure), false) }
                let wake = state.queued.isEmpty
                state.queued.append(bytes)
                state.queuedBytes += bytes.count
                guard state.queuedBytes > room else { return (.success(()), wake) }
                state.writers.append(waiter)
                return (nil, wake)
            }
            if wake { mailbox.post(.link(self, .wake)) }
            if let done { waiter.resume(returning: done) }
        }
        try outcome.get()
    }

    func close(because reason: TransportError) {
        guard end(with: reason) else { return }
        mailbox.post(.link(self, .close))
    }

    /// Records why the link ended and fails whoever waits; `false` when it had ended already.
    @discardableResult
    func end(with reason: TransportError) -> Bool {
        let waiting = shared.withLock { state -> (reader: Waiter<Data?>?, writers: [Waiter<Void>], connector: Waiter<Void>?)? in
            guard state.failure == nil else { return nil }
            state.failure = reason
            state.queued.removeAll()
            state.queuedBytes = 0
            defer {
                state.reader = nil
                state.writers = []
                state.connector = nil
            }
            return (state.reader, state.writers, state.connector)
        }
        guard let waiting else { return false }
        waiting.reader?.resume(returning: .failure(reason))
        waiting.writers.forEach { $0.resume(returning: .failure(reason)) }
        waiting.connector?.resume(returning: .failure(reason))
        return true
    }

    static let shutDown = TransportError(.cancelled, message: "the transport has shut down")
}
