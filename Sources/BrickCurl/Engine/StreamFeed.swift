import BrickSystem
import BrickTransport
import FoundationEssentials

/// The chunks of a body stream on their way to libcurl's read callback: a task pulls them from the stream
/// while fewer than `limit` bytes wait, and the engine thread takes them. Shared state sits in one lock.
final class StreamFeed: Sendable {
    /// What the read callback gets.
    enum Take { case bytes(Int), waiting, finished, failed(String) }

    private struct State {
        var chunks: [Data] = []
        var firstOffset = 0
        var buffered = 0
        var finished = false
        var failure: String?
        var engineWaiting = false
        var feederWaiter: CheckedContinuation<Void, Never>?
        var stopped = false
    }

    private let limit: Int
    private let wake: @Sendable () -> Void
    private let state = Locked(State())

    init(limit: Int, wake: @escaping @Sendable () -> Void) {
        self.limit = max(1, limit)
        self.wake = wake
    }

    /// Pulls every chunk of `stream`, waiting while the buffer is full (runs in its own task).
    func pull(_ stream: BodyStream) async {
        do {
            try await stream.forEachChunk { chunk in
                try Task.checkCancellation()
                guard !chunk.isEmpty else { return }
                await waitForRoom()
                try Task.checkCancellation()
                let wakeEngine = state.withLock { state in
                    state.chunks.append(chunk)
                    state.buffered += chunk.count
                    defer { state.engineWaiting = false }
                    return state.engineWaiting
                }
                if wakeEngine { wake() }
            }
            finish(failure: nil)
        } catch {
            finish(failure: String(describing: error))
        }
    }

    /// Copies buffered bytes into `buffer` (engine thread).
    func take(into buffer: UnsafeMutableRawBufferPointer) -> Take {
        let (take, feeder) = state.withLock { state -> (Take, CheckedContinuation<Void, Never>?) in
            guard !state.chunks.isEmpty else {
                if let failure = state.failure { return (.failed(failure), nil) }
                if state.finished { return (.finished, nil) }
                state.engineWaiting = true
                return (.waiting, nil)
            }
            var copied = 0
            while copied < buffer.count, let chunk = state.chunks.first {
                let start = chunk.startIndex + state.firstOffset
                let count = min(buffer.count - copied, chunk.count - state.firstOffset)
                chunk.copyBytes(to: UnsafeMutableRawBufferPointer(rebasing: buffer[copied...]), from: start..<(start + count))
                copied += count
                state.firstOffset += count
                if state.firstOffset == chunk.count {
                    state.chunks.removeFirst()
                    state.firstOffset = 0
                }
            }
            state.buffered -= copied
            let feeder = state.buffered < limit ? state.feederWaiter : nil
            if feeder != nil { state.feederWaiter = nil }
            return (.bytes(copied), feeder)
        }
        feeder?.resume()
        return take
    }

    /// Ends a waiting feeder: the transfer is over (engine thread).
    func stop() {
        let feeder = state.withLock { state in
            state.stopped = true
            defer { state.feederWaiter = nil }
            return state.feederWaiter
        }
        feeder?.resume()
    }

    private func waitForRoom() async {
        await withCheckedContinuation { waiter in
            let ready = state.withLock { state in
                if state.buffered < limit || state.stopped { return true }
                state.feederWaiter = waiter
                return false
            }
            if ready { waiter.resume() }
        }
    }

    private func finish(failure: String?) {
        let wakeEngine = state.withLock { state in
            state.finished = true
            state.failure = failure
            defer { state.engineWaiting = false }
            return state.engineWaiting
        }
        if wakeEngine { wake() }
    }
}
