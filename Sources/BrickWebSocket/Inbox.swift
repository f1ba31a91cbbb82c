import BrickSystem
import FoundationEssentials

/// The messages read and not yet taken, at most ``capacity`` of them: the task that reads the connection
/// waits in ``push(_:)`` while the inbox is full, so that a slow consumer stops the reading (and TCP slows
/// the peer) instead of memory growing. Behind its own lock.
final class Inbox: Sendable {
    private struct State {
        var messages: [WebSocketMessage] = []
        var first = 0
        var taker: UnsafeContinuation<Result<WebSocketMessage?, WebSocketError>, Never>?
        var pusher: UnsafeContinuation<Void, Never>?
        /// How the messages ended: `nil` while they go on.
        var end: Result<Void, WebSocketError>?
    }

    private let state = Locked(State())
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Hands `message` to the consumer; waits while the inbox is full. Dropped once the inbox has ended.
    func push(_ message: WebSocketMessage) async {
        await withUnsafeContinuation { (pusher: UnsafeContinuation<Void, Never>) in
            let (taker, wait) = state.withLock { state -> (UnsafeContinuation<Result<WebSocketMessage?, WebSocketError>, Never>?, Bool) in
                guard state.end == nil else { return (nil, false) }
                if let taker = state.taker {
                    state.taker = nil
                    return (taker, false)
                }
                state.messages.append(message)
                guard state.messages.count - state.first >= capacity else { return (nil, false) }
                state.pusher = pusher
                return (nil, true)
            }
            taker?.resume(returning: .success(message))
            if !wait { pusher.resume() }
        }
    }

    /// The next message; `nil` once the connection closed cleanly and every message was taken.
    func next() async throws(WebSocketError) -> WebSocketMessage? {
        let outcome = await withUnsafeContinuation { (taker: UnsafeContinuation<Result<WebSocketMessage?, WebSocketError>, Never>) in
            let (ready, pusher) = state.withLock { state -> (Result<WebSocketMessage?, WebSocketError>?, UnsafeContinuation<Void, Never>?) in
                if state.first < state.messages.count {
                    let message = state.messages[state.first]
                    state.first += 1
                    if state.first == state.messages.count {
                        state.messages.removeAll(keepingCapacity: true)
                        state.first = 0
                    }
                    defer { state.pusher = nil }
                    return (.success(message), state.pusher)
                }
                switch state.end {
                case .success?: return (.success(nil), nil)
                case .failure(let error)?: return (.failure(error), nil)
                case nil:
                    state.taker = taker
                    return (nil, nil)
                }
            }
            pusher?.resume()
            if let ready { taker.resume(returning: ready) }
        }
        return try outcome.get()
    }

    /// Ends the messages: those already in are still taken, then `outcome` (nothing for a clean close, the
    /// error otherwise). A reader waiting in ``push(_:)`` goes on (its message dropped). The first call wins.
    func finish(_ outcome: Result<Void, WebSocketError>) {
        let (taker, pusher) = state.withLock { state -> (UnsafeContinuation<Result<WebSocketMessage?, WebSocketError>, Never>?, UnsafeContinuation<Void, Never>?) in
            guard state.end == nil else { return (nil, nil) }
            state.end = outcome
            defer {
                state.taker = nil
                state.pusher = nil
            }
            return (state.taker, state.pusher)
        }
        pusher?.resume()
        taker?.resume(returning: outcome.map { nil })
    }
}
