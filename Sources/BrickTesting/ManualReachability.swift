public import BrickCore
import BrickSystem
import BrickTransport

/// Reachability that a test sets by hand: ``goOffline(_:)`` and ``goOnline(_:)`` change the status of one
/// host or of all, and every subscriber of ``changes()`` hears about it.
public final class ManualReachability: Reachability {
    private struct State {
        var everywhere: ReachabilityStatus
        var byHost: [String: ReachabilityStatus] = [:]
        var subscribers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextID = 0
        var queries = 0
    }

    private let state: Locked<State>

    /// Every host starts with `status`. Default is reachable.
    public init(_ status: ReachabilityStatus = .reachable) { state = Locked(State(everywhere: status)) }

    public nonisolated(nonsending) func status(of host: String) async -> ReachabilityStatus {
        state.withLock { state in
            state.queries += 1
            return state.byHost[host.lowercased()] ?? state.everywhere
        }
    }

    /// Known at once, as ``status(of:)`` is (and counted with it).
    public func knownStatus(of host: String) -> ReachabilityStatus? {
        state.withLock { state in
            state.queries += 1
            return state.byHost[host.lowercased()] ?? state.everywhere
        }
    }

    /// How many times ``status(of:)`` or ``knownStatus(of:)`` was asked, for any host.
    public var statusQueries: Int { state.withLock { $0.queries } }

    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) } }
        return stream
    }

    /// Makes `host` unreachable, or every host when `nil`.
    public func goOffline(_ host: String? = nil) { set(.unreachable, host) }
    /// Makes `host` reachable, or every host when `nil`.
    public func goOnline(_ host: String? = nil) { set(.reachable, host) }

    /// Sets `status` for `host`, or for every host when `nil` (forgetting per-host settings).
    public func set(_ status: ReachabilityStatus, _ host: String? = nil) {
        let subscribers = state.withLock { state in
            if let host { state.byHost[host.lowercased()] = status } else {
                state.everywhere = status
                state.byHost = [:]
            }
            return Array(state.subscribers.values)
        }
        subscribers.forEach { $0.yield() }
    }
}
