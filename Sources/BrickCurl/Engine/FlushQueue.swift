/// The streamed transfers that queued body chunks during the engine's current pass over the sockets; the
/// engine wakes their consumers once the pass is over (engine thread only).
final class FlushQueue {
    @exclusivity(unchecked) private var transfers: [EngineTransfer] = []

    /// Remembers `easy` for the end of the pass, once per pass.
    func schedule(_ easy: EngineTransfer) {
        guard !easy.flushScheduled else { return }
        easy.flushScheduled = true
        transfers.append(easy)
    }

    /// Wakes the consumers of every scheduled transfer.
    func flush() {
        guard !transfers.isEmpty else { return }
        for easy in transfers {
            easy.flushScheduled = false
            easy.transfer.flush()
        }
        transfers.removeAll(keepingCapacity: true)
    }
}
