/// The streamed transfers that queued body chunks during the engine's current pass over the sockets; the
/// engine wakes their consumers once the pass is over (engine thread only).
final class FlushQueue {
    @exclusivity(unchecked) private var transfers: [CurlTransfer] = []

    /// Remembers `transfer` for the end of the pass, once per pass.
    func schedule(_ transfer: CurlTransfer) {
        guard !transfer.engine.flushScheduled else { return }
        transfer.engine.flushScheduled = true
        transfers.append(transfer)
    }

    /// Wakes the consumers of every scheduled transfer.
    func flush() {
        guard !transfers.isEmpty else { return }
        for transfer in transfers {
            transfer.engine.flushScheduled = false
            transfer.flush()
        }
        transfers.removeAll(keepingCapacity: true)
    }
}
