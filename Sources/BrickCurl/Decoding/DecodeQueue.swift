/// Transfers whose decoding did its share of work in a pass and goes on at the engine's next turn, so that
/// no callback decodes without end (engine thread only). While it holds any, the engine does not sleep.
final class DecodeQueue {
    @exclusivity(unchecked) private var transfers: [CurlTransfer] = []

    /// Whether a transfer waits for its next pass.
    var isEmpty: Bool { transfers.isEmpty }

    /// Remembers `transfer` for the next turn, once.
    func schedule(_ transfer: CurlTransfer) {
        guard !transfer.engine.decodeScheduled else { return }
        transfer.engine.decodeScheduled = true
        transfers.append(transfer)
    }

    /// The transfers scheduled so far, each forgotten (a pass that yields again schedules it again).
    func take() -> [CurlTransfer] {
        defer { transfers.removeAll(keepingCapacity: true) }
        for transfer in transfers { transfer.engine.decodeScheduled = false }
        return transfers
    }
}
