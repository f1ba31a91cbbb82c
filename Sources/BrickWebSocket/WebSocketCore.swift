import BrickTransport
import BrickSystem
import FoundationEssentials

/// What a ``WebSocket`` is made of, and what its reading task holds (never the ``WebSocket`` itself, so that
/// dropping the last reference to it closes the connection).
package final class WebSocketCore: Sendable {
    let options: WebSocketOptions

    let connection: any UpgradedConnection
    let sender: Sender
    let inbox: Inbox
    let status = Locked(Status())
    /// Raised when the reading task ends (the peer's close came, or the connection ended).
    let readingEnded = Ending()

    struct Status {
        /// The peer's close frame, once it came.
        var peerClose: WebSocketClose?
        /// Pings waiting for their pong, by payload.
        var pings: [Data: UnsafeContinuation<Result<Void, WebSocketError>, Never>] = [:]
    }

    init(connection: any UpgradedConnection, deflate: DeflateParameters?, options: WebSocketOptions) {
        self.connection = connection
        self.options = options
        sender = Sender(connection: connection, deflate: deflate, fragmentSize: options.fragmentSize)
        inbox = Inbox(capacity: options.bufferedMessages)
        Task { [self] in
            await readLoop(deflate: deflate)
            readingEnded.signal()
        }
        if let interval = options.heartbeat {
            Task { [self] in await beat(every: interval) }
        }
    }

    /// ``WebSocket/ping()``.
    func ping() async throws(WebSocketError) {
        var generator = SystemRandomNumberGenerator()
        let payload = Data((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let timeout = options.pingTimeout
        var timer: Task<Void, Never>?
        let outcome = await withUnsafeContinuation { (waiter: UnsafeContinuation<Result<Void, WebSocketError>, Never>) in
            status.withLock { $0.pings[payload] = waiter }
            timer = Task { [self] in
                do throws(WebSocketError) {
                    try await sender.send(.ping, payload)
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled else { return }
                    let error = WebSocketError(.pingTimedOut, "no pong within \(timeout) (WebSocketOptions.pingTimeout): the connection is taken as dead")
                    if answerPing(payload, with: .failure(error)) { fail(error) }
                } catch {
                    answerPing(payload, with: .failure(error))
                }
            }
        }
        timer?.cancel()
        try outcome.get()
    }

    /// Resumes the ping waiting for `payload`; `false` when none waits (answered already).
    @discardableResult
    func answerPing(_ payload: Data, with outcome: Result<Void, WebSocketError>) -> Bool {
        guard let waiter = status.withLock({ $0.pings.removeValue(forKey: payload) }) else { return false }
        waiter.resume(returning: outcome)
        return true
    }

    /// The heartbeat: a ping `interval` after each pong until the reading ends; a ping that times out has
    /// failed the connection (``ping()``).
    private func beat(every interval: Duration) async {
        while !readingEnded.happened {
            await readingEnded.wait(atMost: interval)
            guard !readingEnded.happened else { return }
            do throws(WebSocketError) { try await ping() } catch { return }
        }
    }

    /// ``WebSocket/close(code:reason:)``; with `readingOn`, ``WebSocket/closeAfterAnswers(code:reason:)``:
    /// the messages end with the peer's close (or at the timeout) instead of at once.
    func close(code: UInt16, reason: String, readingOn: Bool = false) async {
        if !readingOn { inbox.finish(.success(())) }
        await sender.sendClose(code: WebSocketClose.isSendable(code) ? code : 1000, reason: reason)
        await readingEnded.wait(atMost: options.closeTimeout)
        inbox.finish(.success(()))
        connection.close()
    }

    /// Fails the connection for `error`: the messages end with it, and the connection closes.
    func fail(_ error: WebSocketError) {
        inbox.finish(.failure(error))
        connection.close(because: TransportError(.connectionLost, message: error.description))
        let pings = status.withLock { status in
            defer { status.pings = [:] }
            return status.pings
        }
        pings.values.forEach { $0.resume(returning: .failure(error)) }
    }
}
