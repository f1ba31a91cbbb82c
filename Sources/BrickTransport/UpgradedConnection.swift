import BrickSystem
public import FoundationEssentials

/// The raw byte connection a transport hands over when a server switches protocols (`101 Switching
/// Protocols`): after a WebSocket handshake, the frames flow over it.
///
/// Reading is pulled: nothing more is read from the socket while the bytes already read wait for ``read()``
/// (the transport holds a bounded amount), so a slow reader slows the peer down instead of filling memory.
public protocol UpgradedConnection: AnyObject, Sendable {
    /// The next bytes the peer sent, in order; `nil` once the peer closed its side. Called by one reader at a
    /// time. Task cancellation ends the wait (and closes the connection) with `cancelled`.
    /// - Throws: ``TransportError``: `connectionLost` when the connection broke, or why it was closed.
    func read() async throws(TransportError) -> Data?

    /// Queues `bytes` to be sent after those queued before; returns once they fit in the transport's bounded
    /// send buffer (a writer faster than the network waits here).
    /// - Throws: ``TransportError`` once the connection is closed or broken.
    func write(_ bytes: Data) async throws(TransportError)

    /// Closes the connection now (what was queued and not sent is dropped); pending and later reads and
    /// writes fail with `reason`. Safe to call more than once, from any thread: the first reason wins.
    func close(because reason: TransportError)
}

extension UpgradedConnection {
    /// Closes the connection; pending and later calls fail with `cancelled`.
    public func close() { close(because: .cancelled) }
}

/// Where a transport leaves the connection of an upgrade request: set ``TransportRequest/upgrade`` to one,
/// and a transport that answers `101` puts the connection here (any other answer leaves it empty).
///
/// The slot names the protocol asked for: the transport sends `Upgrade` and `Connection: Upgrade` itself
/// (a caller's own fields of those names are refused, as for any request: ``HTTPHeaders/validate()``).
/// `Sendable` behind its own lock: the transport puts, the caller takes, each once.
public final class UpgradeSlot: Sendable {
    /// The protocol asked for in `Upgrade`, such as `websocket`.
    public let upgradeProtocol: String
    private let connection = Locked<(any UpgradedConnection)?>(nil)

    /// An empty slot for an upgrade to `upgradeProtocol` (a token, such as `websocket`).
    public init(upgradeProtocol: String) { self.upgradeProtocol = upgradeProtocol }

    /// Leaves `connection` for the caller; one left before and not taken is closed.
    public func put(_ connection: any UpgradedConnection) {
        let previous = self.connection.withLock { slot in
            let previous = slot
            slot = connection
            return previous
        }
        previous?.close()
    }

    /// Takes the connection out (the caller owns it from now on), or `nil` when none was left.
    public func take() -> (any UpgradedConnection)? {
        connection.withLock { slot in
            let taken = slot
            slot = nil
            return taken
        }
    }

    deinit { take()?.close() }
}
