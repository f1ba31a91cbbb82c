/// How a ``ReconnectingWebSocket`` comes back after its connection is lost: it waits for the route to the
/// host (the session's reachability), backs off with jitter, takes a token of the origin's retry budget, and
/// opens the connection again through the session's chain, at most ``maxAttempts`` times in a row.
public struct ReconnectPolicy: Sendable {
    /// The delay before the first attempt after a loss. Each failed attempt doubles it, up to ``maxDelay``;
    /// each delay is drawn at random between half of it and all of it, so that clients lost together do not
    /// come back together. Default is 250 ms.
    public var initialDelay: Duration = .milliseconds(250)
    /// The longest delay between two attempts. Default is 10 s.
    public var maxDelay: Duration = .seconds(10)
    /// Failed attempts in a row after which it gives up: the messages then end with the last error. An
    /// attempt the origin's retry budget refuses counts as failed (and waits its delay). Default is 10.
    public var maxAttempts = 10
    /// Whether it waits, before each attempt, while the session's reachability says the route to the host is
    /// down (at most ``maxRouteWait``; an attempt into a down route would fail at once). Default is `true`.
    public var waitsForRoute = true
    /// The longest wait for the route before one attempt; then it attempts anyway. Default is 5 minutes.
    public var maxRouteWait: Duration = .seconds(300)
    /// Where messages sent while disconnected go, or `nil` to refuse them (`send` throws
    /// ``WebSocketError/Kind/notConnected``). Default is `nil`: nothing is sent later unless you ask.
    public var outbox: Outbox?

    /// A policy with the defaults above and `outbox`.
    public init(outbox: Outbox? = nil) { self.outbox = outbox }

    /// The defaults above, with no outbox.
    public static let `default` = ReconnectPolicy()

    /// Messages sent while disconnected, kept in order and sent after the next connection opens (after the
    /// resubscribe hook), before any message sent after it.
    public struct Outbox: Sendable {
        /// The most messages it holds.
        public var capacity: Int
        /// What a send does when the outbox is full.
        public var whenFull: WhenFull

        /// An outbox of at most `capacity` messages (at least 1).
        public init(capacity: Int, whenFull: WhenFull = .refuseNew) {
            self.capacity = max(1, capacity)
            self.whenFull = whenFull
        }

        /// The rule for a full outbox. Frozen: these two are the choices.
        public enum WhenFull: Sendable {
            /// The new message is refused: `send` throws ``WebSocketError/Kind/outboxFull``.
            case refuseNew
            /// The oldest message waiting is dropped to make room (counted in
            /// ``ReconnectingWebSocket/droppedFromOutbox``).
            case dropOldest
        }
    }

    /// The delay before the attempt that follows `failures` failed ones, jittered by `unit` (0 ..< 1).
    func delay(after failures: Int, unit: Double) -> Duration {
        let doublings = min(max(0, failures), 30)
        let full = min(maxDelay, initialDelay * Double(1 << doublings))
        return full * (0.5 + 0.5 * unit)
    }
}

/// What happened to a ``ReconnectingWebSocket``'s connection, in order, on ``ReconnectingWebSocket/events``.
/// The library may add cases: switch with a `default`.
public enum ReconnectEvent: Sendable {
    /// The connection was lost (the error says how); a reconnect follows.
    case lost(WebSocketError)
    /// Connection number `count` + 1 opened, `after` the loss (waits for the route and delays included).
    case reconnected(count: Int, after: Duration)
    /// It gave up after its policy's attempts (or the peer closed for good); the messages end.
    case gaveUp(WebSocketError)
}
