/// Transfers whose decoding did its share of work in a pass and goes on at the engine's next turn, so that
/// no callback decodes without end (engine thread only). While it holds any, the engine does not sleep.
final class DecodeQueue {
    @exclusivity(unchecked) private var transfers: [EngineTransfer] = []

    /// Whether a transfer waits for its next pass.
    var isEmpty: Bool { transfers.isEmpty }

    /// Remembers `easy` for the next turn, once.
    func schedule(_ easy: EngineTransfer) {
        guard !easy.decodeScheduled else { return }
        easy.decodeScheduled = true
        transfers.append(easy)
    }

    /// The transfers scheduled so far, each forgotten (a pass that yields again schedules it again).
    func take() -> [EngineTransfer] {
        defer { transfers.removeAll(keepingCapacity: true) }
        for easy in transfers { easy.decodeScheduled = false }
        return transfers
    }
}
