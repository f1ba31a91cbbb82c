import BrickTransport

/// The events of a `text/event-stream` response, parsed (``ServerSentEventParser``), with back-pressure:
/// the transfer pauses while the consumer is behind. Iterate it once; stopping early cancels the transfer.
///
/// With reconnection (`RequestType.serverSentEvents(maxEventSize:)` and
/// `Session.serverSentEvents(_:retry:maxEventSize:)`), a connection that ends or drops after its head
/// is opened again, sending `Last-Event-ID`, after the server's `retry:` time (or the retry rules'
/// `breakTime`), for as long as the retry rules allow: `maxRetryCount` reconnections in a row that bring
/// no event. The wait is never under 250 ms, so that no server can make a storm of them, and it doubles (up
/// to the rules' `maxBreakTime`) while connections keep ending without delivering an event; one that
/// delivered an event starts again from the server's time (WHATWG HTML §9.2). Opening a connection goes
/// through the retry rules as any stream does (a refused connection is
/// retried, an unreachable host waited for). A `204 No Content` ends the events; a status outside 2xx or
/// a body that is not `text/event-stream` fails with `.validation`.
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// What it yields: parsed events.
    public typealias Element = ServerSentEvent
    /// What it throws.
    public typealias Failure = BrickError

    /// Opens one connection; given the last event ID so far, if any.
    let connect: @Sendable (_ lastEventID: String?) -> ResponseStream
    /// How reconnections are made, or `nil` for one connection only.
    let reconnection: Reconnection?
    let maxEventSize: Int

    struct Reconnection: Sendable {
        let rules: AutoRetryConfiguration
        let clock: any Clock<Duration>
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(connect: connect, reconnection: reconnection, parser: ServerSentEventParser(maxEventSize: maxEventSize))
    }

    /// Reads the events in order; the first call to `next()` opens the first connection.
    public struct Iterator: AsyncIteratorProtocol {
        /// What it yields: parsed events.
        public typealias Element = ServerSentEvent
        /// What it throws.
        public typealias Failure = BrickError

        let connect: @Sendable (String?) -> ResponseStream
        let reconnection: Reconnection?
        var parser: ServerSentEventParser
        var connection: ResponseStream.Iterator?
        var ready: [ServerSentEvent] = []
        var nextReady = 0
        var gotHead = false
        var emptyConnectionsInARow = 0
        /// Connections in a row that ended without delivering an event: the wait doubles with each.
        var failedConnectionsInARow = 0
        /// Whether the connection now open has delivered an event.
        var delivered = false
        var finished = false

        init(connect: @escaping @Sendable (String?) -> ResponseStream, reconnection: Reconnection?, parser: ServerSentEventParser) {
            self.connect = connect
            self.reconnection = reconnection
            self.parser = parser
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(BrickError) -> ServerSentEvent? {
            try await next()
        }

        /// The next event; `nil` once the server ended the events (or, without reconnection, the connection).
        public nonisolated(nonsending) mutating func next() async throws(BrickError) -> ServerSentEvent? {
            while true {
                if nextReady < ready.count {
                    defer { nextReady += 1 }
                    return ready[nextReady]
                }
                if finished { return nil }
                if connection == nil {
                    connection = connect(parser.lastEventID.isEmpty ? nil : parser.lastEventID).makeAsyncIterator()
                    delivered = false
                    gotHead = false
                }
                do throws(BrickError) {
                    switch try await connection?.next() {
                    case .head(let head)?:
                        try accept(head)
                        gotHead = true
                    case .body(let chunk)?:
                        do throws(TransportError) { ready = try parser.feed(chunk) } catch { throw .transport(error) }
                        nextReady = 0
                        if !ready.isEmpty {
                            emptyConnectionsInARow = 0
                            delivered = true
                        }
                    case .end?, nil: try await connectionEnded(after: nil)
                    default: continue
                    }
                } catch {
                    if case .transport(let failure) = error, failure.kind == .cancelled { throw error }
                    // A failure before the head already went through the retry rules; a refusal of the
                    // events (status, type, size) is final.
                    guard gotHead, !finished, error.transportError?.kind != .responseTooLarge else {
                        connection = nil
                        finished = true
                        throw error
                    }
                    try await connectionEnded(after: error)
                }
            }
        }

        /// A 204 ends the events; anything but a 2xx `text/event-stream` is refused.
        private mutating func accept(_ head: ResponseHead) throws(BrickError) {
            if head.status == 204 {
                finished = true
                connection = nil
                return
            }
            let type = head.headers["Content-Type"]?.lowercased() ?? ""
            let response = TransportResponse(head: head)
            guard (200..<300).contains(head.status) else { throw .validation(.unacceptableStatusCode(head.status), response: response) }
            guard type.hasPrefix("text/event-stream") else {
                throw .validation(.unacceptableContentType(head.headers["Content-Type"], acceptable: ["text/event-stream"]), response: response)
            }
        }

        /// After a connection ended (cleanly, or with `error` after its head): reconnects after the server's
        /// retry time if the rules allow, otherwise ends (or throws `error`).
        private nonisolated(nonsending) mutating func connectionEnded(after error: BrickError?) async throws(BrickError) {
            connection = nil
            parser.connectionEnded()
            guard !finished else { return }
            guard let reconnection, emptyConnectionsInARow < reconnection.rules.maxRetryCount else {
                finished = true
                if let error { throw error }
                return
            }
            emptyConnectionsInARow += 1
            failedConnectionsInARow = delivered ? 0 : failedConnectionsInARow + 1
            let requested = Swift.min(parser.reconnectionTime ?? reconnection.rules.breakTime, reconnection.rules.maxBreakTime)
            let delay = ServerSentEvents.reconnectionDelay(
                requested: requested, failedInARow: failedConnectionsInARow, cap: reconnection.rules.maxBreakTime)
            do { try await reconnection.clock.sleep(for: delay) } catch {
                finished = true
                throw .transport(.cancelled)
            }
        }
    }

    /// The shortest wait before a reconnection, whatever `retry:` the server sent: `retry: 0` and one event
    /// per connection would otherwise open thousands of connections a second.
    package static let minimumReconnectionDelay = Duration.milliseconds(250)
    /// The wait before the next connection: the `requested` time (the server's `retry:`, or the rules'
    /// break time), at least ``minimumReconnectionDelay``; doubled for each connection after the first in a
    /// row that ended without delivering an event (`failedInARow`: 0 after one that delivered), up to `cap`
    /// (the rules' longest break) or the requested time if longer.
    package static func reconnectionDelay(requested: Duration, failedInARow: Int, cap: Duration) -> Duration {
        let base = Swift.max(minimumReconnectionDelay, requested)
        let limit = Swift.max(base, cap)
        var delay = base
        for _ in 0..<Swift.min(Swift.max(0, failedInARow - 1), 32) where delay < limit { delay = delay * 2 }
        return Swift.min(delay, limit)
    }
}
