import BrickSystem

/// Watches the connections a session keeps open across the network's failures (a reconnecting WebSocket,
/// `ReconnectingWebSocket`): told when one opens, each time it is lost and reconnected, and once when it
/// ends. Each of its connections' handshakes is a call, which the ``CallObserver``s see as any other; this
/// sees what lies between them. Set in ``Session/Configuration/connectionObservers``; told on the task
/// that supervises the connection, so it returns at once (a metric, a span's event).
public protocol ConnectionObserver: Sendable {
    /// `event` happened to `connection`.
    func observe(_ event: ConnectionEvent, of connection: ObservedConnection)
}

/// A connection as its ``ConnectionObserver``s know it.
public struct ObservedConnection: Sendable, Hashable {
    /// Unique in the process, so that an observer can tell one connection's events from another's.
    public let id: UInt64
    /// Its URL (`wss://…`, `ws://…`), its password left out.
    public let url: String
    /// The protocol it speaks: `websocket`.
    public let protocolName: String

    private static let lastID = Locked<UInt64>(0)

    /// A connection to `url` speaking `protocolName`, with an id of its own.
    package init(url: String, protocolName: String) {
        id = Self.lastID.withLock { id in
            id += 1
            return id
        }
        self.url = URLPassword.redacted(url)
        self.protocolName = protocolName
    }
}

/// What happened to a connection, in order: `opened` first, `ended` last and once. The library may add
/// cases in a minor version: switch with a `default`.
public enum ConnectionEvent: Sendable, Equatable {
    /// Its first connection opened.
    case opened
    /// A connection was lost, for `reason`; a reconnect follows unless it ends.
    case lost(reason: String)
    /// Connection number `count` + 1 opened, `after` the loss.
    case reconnected(count: Int, after: Duration)
    /// It ended: closed, or given up after `failure` (`nil` for a close).
    case ended(failure: String?)
}
