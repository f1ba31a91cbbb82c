import BrickSystem
import BrickTransport

/// The transfers a session is running, by dispatch number, with the component that started each.
///
/// Kept in slots that are used again (a number is its slot and that slot's generation), so that adding and
/// removing one costs no hash: every request of a session does both.
final class RunningRegistry: Sendable {
    private struct Entry {
        let owner: ObjectIdentifier?
        let transfer: any TransportTransfer
        /// The request's route, for transfers that end early when its host becomes unreachable (collected and streamed ones).
        let abortableRoute: RequestRoute?
    }

    /// A slot's entry (`nil` when free) and generation (how many entries it held so far): a named struct,
    /// not a tuple, so that the list's element is compiled for it (an array of tuples assigns its elements
    /// through the runtime's generic tuple witnesses).
    private struct Slot {
        var entry: Entry?
        var generation: UInt32
    }

    private struct State {
        var slots: [Slot] = []
        var freeSlots: [Int] = []
        var count = 0
        var nextWaitID: UInt64 = 0
        /// Whether the session is shutting down: no transfer is added any more.
        var closed = false
        /// Who waits for the list to be empty (``drained()``), by number; numbers of waits already cancelled.
        var drainWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var cancelledWaits: Set<UInt64> = []

        /// The running entries, with their numbers.
        var entries: some Sequence<(UInt64, Entry)> {
            slots.indices.lazy.compactMap { index in
                slots[index].entry.map { (UInt64(slots[index].generation) << 32 | UInt64(index), $0) }
            }
        }
    }

    private let state = Locked(State())

    /// Records a running transfer; returns the number to remove it with, or `nil` once the session is
    /// shutting down (the transfer must not start).
    ///
    /// - Parameter abortableRoute: The request's route, when the transfer is to end as soon as the host it
    ///   needs is unreachable (the host is worked out only then, off the request's path).
    func add(_ transfer: any TransportTransfer, owner: ObjectIdentifier?, abortableRoute: RequestRoute? = nil) -> UInt64? {
        state.withLock { state in
            guard !state.closed else { return nil }
            // The entry is made where it is kept (made first and then stored, it was copied).
            let slot: Int
            if let free = state.freeSlots.popLast() {
                slot = free
                state.slots[slot].entry = Entry(owner: owner, transfer: transfer, abortableRoute: abortableRoute)
                state.slots[slot].generation &+= 1
            } else {
                slot = state.slots.count
                state.slots.append(Slot(entry: Entry(owner: owner, transfer: transfer, abortableRoute: abortableRoute), generation: 0))
            }
            state.count += 1
            return UInt64(state.slots[slot].generation) << 32 | UInt64(slot)
        }
    }

    /// Forgets a transfer.
    func remove(_ id: UInt64) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            let slot = Int(id & 0xFFFF_FFFF)
            guard slot < state.slots.count, state.slots[slot].entry != nil, UInt64(state.slots[slot].generation) == id >> 32 else { return [] }
            state.slots[slot].entry = nil
            state.freeSlots.append(slot)
            state.count -= 1
            guard state.count == 0, !state.drainWaiters.isEmpty else { return [] }
            defer { state.drainWaiters = [:] }
            return Array(state.drainWaiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    /// Refuses every transfer from now on (``add(_:owner:abortableRoute:)`` returns `nil`).
    func close() { state.withLock { $0.closed = true } }

    /// Whether ``close()`` was called.
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Returns once no transfer is running, or when the task is cancelled.
    func drained() async {
        let number = state.withLock { state -> UInt64? in
            guard state.count > 0 else { return nil }
            state.nextWaitID += 1
            return state.nextWaitID
        }
        guard let number else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    let now = state.count == 0 || state.cancelledWaits.remove(number) != nil
                    if !now { state.drainWaiters[number] = continuation }
                    return now
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                let waiter = state.drainWaiters.removeValue(forKey: number)
                if waiter == nil { state.cancelledWaits.insert(number) }
                return waiter
            }
            waiter?.resume()
        }
    }

    var count: Int { state.withLock { $0.count } }

    /// The running transfers that end when their host becomes unreachable, with that host.
    func abortableHosts() -> [(UInt64, String)] {
        let routes = state.withLock { state in state.entries.compactMap { id, entry in entry.abortableRoute.map { (id, $0) } } }
        return routes.compactMap { id, route in route.host.map { (id, $0) } }
    }

    /// Ends transfer `id` with `error`, which its caller receives instead of a response.
    func abort(_ id: UInt64, with error: TransportError) {
        state.withLock { state -> (any TransportTransfer)? in
            let slot = Int(id & 0xFFFF_FFFF)
            guard slot < state.slots.count, UInt64(state.slots[slot].generation) == id >> 32 else { return nil }
            return state.slots[slot].entry?.transfer
        }?.cancel(because: error)
    }

    /// Cancels the transfers of `owner`, or all of them when `owner` is `nil`, with `reason`.
    func cancel(owner: ObjectIdentifier?, because reason: TransportError = .cancelled) {
        let transfers = state.withLock { state in
            state.entries.filter { owner == nil || $0.1.owner == owner }.map(\.1.transfer)
        }
        transfers.forEach { $0.cancel(because: reason) }
    }
}
