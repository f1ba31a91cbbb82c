import Synchronization

/// The transfers a session is running, by dispatch number, with the component that started each.
final class RunningRegistry: Sendable {
    private struct Entry {
        let owner: ObjectIdentifier?
        let transfer: any TransportTransfer
    }

    private struct State {
        var nextID: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
    }

    private let state = Mutex(State())

    /// Records a running transfer; returns the number to remove it with.
    func add(_ transfer: any TransportTransfer, owner: ObjectIdentifier?) -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = Entry(owner: owner, transfer: transfer)
            return state.nextID
        }
    }

    func remove(_ id: UInt64) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    var count: Int { state.withLock { $0.entries.count } }

    /// Cancels the transfers of `owner`, or all of them when `owner` is `nil`.
    func cancel(owner: ObjectIdentifier?) {
        let transfers = state.withLock { state in
            state.entries.values.filter { owner == nil || $0.owner == owner }.map(\.transfer)
        }
        transfers.forEach { $0.cancel() }
    }
}
