import BrickSystem

/// Values handed from one side to a reader that waits for them, in order, until the queue is finished: the
/// two directions of a ``WebSocketPeer``'s connection and the messages it received.
final class ByteQueue<Value: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var reader: UnsafeContinuation<Value?, Never>?
        var finished = false
    }

    private let state = Locked(State())

    /// Adds `value` (dropped once finished).
    func push(_ value: Value) {
        let reader = state.withLock { state -> UnsafeContinuation<Value?, Never>? in
            guard !state.finished else { return nil }
            if let reader = state.reader {
                state.reader = nil
                return reader
            }
            state.values.append(value)
            return nil
        }
        reader?.resume(returning: value)
    }

    /// Ends the queue: what was pushed is still read, then `nil`.
    func finish() {
        let reader = state.withLock { state -> UnsafeContinuation<Value?, Never>? in
            state.finished = true
            defer { state.reader = nil }
            return state.values.isEmpty ? state.reader : nil
        }
        reader?.resume(returning: nil)
    }

    /// The next value, or `nil` once finished and empty. One reader at a time.
    func next() async -> Value? {
        await withUnsafeContinuation { (reader: UnsafeContinuation<Value?, Never>) in
            let ready = state.withLock { state -> Value?? in
                if !state.values.isEmpty { return .some(state.values.removeFirst()) }
                if state.finished { return .some(nil) }
                state.reader = reader
                return nil
            }
            if let ready { reader.resume(returning: ready) }
        }
    }
}
