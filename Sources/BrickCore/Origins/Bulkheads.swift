import BrickSystem

/// The attempts in flight to each origin, when the session limits them (``OriginProtection/maxConcurrentCalls``):
/// an attempt over the limit waits in its origin's line, first come first served, for at most what its
/// deadline leaves; the line holds at most ``OriginProtection/maxQueuedCalls``. An origin with nothing in
/// flight and nobody waiting is forgotten at once, so that the table holds only origins in use.
final class Bulkheads: Sendable {
    /// How a wait for a place ended.
    enum Entry: Sendable, Equatable { case admitted, queueFull, expired, cancelled }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Entry, Never>
        /// The sleep that ends the wait at its deadline; cancelled when the wait ends otherwise.
        var timer: Task<Void, Never>?
    }

    private struct Line {
        var inFlight = 0
        var waiting: [Waiter] = []
    }

    private let lines = Locked<(lastID: UInt64, byOrigin: [String: Line])>((0, [:]))
    private let limit: Int
    private let queueLimit: Int
    private let clock: any Clock<Duration>

    init(limit: Int, queueLimit: Int, clock: any Clock<Duration>) {
        self.limit = limit
        self.queueLimit = queueLimit
        self.clock = clock
    }

    /// Takes a place for an attempt to `origin`, waiting up to `patience` (for ever when `nil`) when all are
    /// taken. Every `.admitted` must be followed by one ``leave(_:)``.
    func enter(_ origin: String, patience: Duration?) async -> Entry {
        let id = lines.withLock { lines -> UInt64 in
            lines.lastID += 1
            return lines.lastID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Entry, Never>) in
                let now: Entry? = lines.withLock { lines in
                    if Task.isCancelled { return .cancelled }
                    var line = lines.byOrigin[origin] ?? Line()
                    defer { lines.byOrigin[origin] = line }
                    if line.inFlight < limit {
                        line.inFlight += 1
                        return .admitted
                    }
                    if line.waiting.count >= queueLimit { return .queueFull }
                    if patience.map({ $0 <= .zero }) == true { return .expired }
                    line.waiting.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let now { return continuation.resume(returning: now) }
                guard let patience else { return }
                let timer = Task { [clock] in
                    guard (try? await clock.sleep(for: patience)) != nil else { return }
                    self.end(id, of: origin, with: .expired)
                }
                lines.withLock { lines in
                    guard let index = lines.byOrigin[origin]?.waiting.firstIndex(where: { $0.id == id }) else { return timer.cancel() }
                    lines.byOrigin[origin]?.waiting[index].timer = timer
                }
            }
        } onCancel: {
            end(id, of: origin, with: .cancelled)
        }
    }

    /// Gives an attempt's place back: to the first waiter of the line, or free.
    func leave(_ origin: String) {
        let next: Waiter? = lines.withLock { lines in
            guard var line = lines.byOrigin[origin] else { return nil }
            defer { lines.byOrigin[origin] = line.inFlight == 0 && line.waiting.isEmpty ? nil : line }
            guard !line.waiting.isEmpty else {
                line.inFlight -= 1
                return nil
            }
            return line.waiting.removeFirst()  // the place passes to it: inFlight stays
        }
        next?.timer?.cancel()
        next?.continuation.resume(returning: .admitted)
    }

    /// Ends waiter `id`'s wait with `entry`, if it still waits.
    private func end(_ id: UInt64, of origin: String, with entry: Entry) {
        let waiter: Waiter? = lines.withLock { lines in
            guard let index = lines.byOrigin[origin]?.waiting.firstIndex(where: { $0.id == id }) else { return nil }
            return lines.byOrigin[origin]?.waiting.remove(at: index)
        }
        waiter?.timer?.cancel()
        waiter?.continuation.resume(returning: entry)
    }

    /// The attempts in flight to `origin`, and those waiting.
    func occupancy(_ origin: String) -> (inFlight: Int, waiting: Int) {
        lines.withLock { lines in (lines.byOrigin[origin]?.inFlight ?? 0, lines.byOrigin[origin]?.waiting.count ?? 0) }
    }
}
