import BrickTransport

/// The transfers a session is running, by dispatch number, with the component that started each.
final class RunningRegistry: Sendable {
    private struct Entry {
        let owner: ObjectIdentifier?
        let transfer: any TransportTransfer
        /// The request's URL, for transfers that end early when its host becomes unreachable (collected and streamed ones).
        let abortableURL: String?
    }

    private struct State {
        var nextID: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
    }

    private let state = Locked(State())

    /// Records a running transfer; returns the number to remove it with.
    ///
    /// - Parameter abortableURL: The request's URL, when the transfer is to end as soon as its host is
    ///   unreachable (the host is worked out only then, off the request's path).
    func add(_ transfer: any TransportTransfer, owner: ObjectIdentifier?, abortableURL: String? = nil) -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = Entry(owner: owner, transfer: transfer, abortableURL: abortableURL)
            return state.nextID
        }
    }

    /// Forgets a transfer.
    func remove(_ id: UInt64) {
        state.withLock { _ = $0.entries.removeValue(forKey: id) }
    }

    var count: Int { state.withLock { $0.entries.count } }

    /// The running transfers that end when their host becomes unreachable, with that host.
    func abortableHosts() -> [(UInt64, String)] {
        let urls = state.withLock { state in state.entries.compactMap { id, entry in entry.abortableURL.map { (id, $0) } } }
        return urls.compactMap { id, url in TransportRequest.host(of: url).map { (id, $0) } }
    }

    /// Ends transfer `id` with `error`, which its caller receives instead of a response.
    func abort(_ id: UInt64, with error: TransportError) {
        state.withLock { $0.entries[id]?.transfer }?.cancel(because: error)
    }

    /// Cancels the transfers of `owner`, or all of them when `owner` is `nil`.
    func cancel(owner: ObjectIdentifier?) {
        let transfers = state.withLock { state in
            state.entries.values.filter { owner == nil || $0.owner == owner }.map(\.transfer)
        }
        transfers.forEach { $0.cancel() }
    }
}
