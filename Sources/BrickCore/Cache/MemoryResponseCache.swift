import BrickSystem
import BrickTransport

/// A ``ResponseCache`` in memory, bounded in bytes: the least recently used responses go first.
public final class MemoryResponseCache: ResponseCache {
    private struct State {
        var entries: [String: (response: CachedResponse, used: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The most bytes (bodies and headers) kept.
    public let capacity: Int
    private let state = Locked(State())

    /// Creates a cache of at most `capacity` bytes (default 16 MiB); a response larger than an eighth of it
    /// is not kept.
    public init(capacity: Int = 16 << 20) { self.capacity = max(0, capacity) }

    /// Bytes held now.
    public var currentBytes: Int { state.withLock { $0.bytes } }

    public func cachedResponse(for key: String) async -> CachedResponse? {
        state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            state.clock += 1
            state.entries[key]?.used = state.clock
            return entry.response
        }
    }

    public func store(_ response: CachedResponse, for key: String) async {
        let cost = response.cost
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.response.cost }
            guard cost <= capacity / 8 else { return }
            state.clock += 1
            state.entries[key] = (response, state.clock)
            state.bytes += cost
            while state.bytes > capacity, let victim = state.entries.min(by: { $0.value.used < $1.value.used }) {
                state.entries[victim.key] = nil
                state.bytes -= victim.value.response.cost
            }
        }
    }

    public func removeResponse(for key: String) async {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.response.cost }
        }
    }

    public func removeAll() async {
        state.withLock { $0 = State() }
    }
}
