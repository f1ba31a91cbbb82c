#if Postgres
import BrickSystem

/// Turns the schema's notifications into wake-ups for the queues open in this process: a thread of its
/// own, with a connection of its own, `LISTEN`ing on the schema's channel and waiting on its socket (no
/// polling). When the connection breaks it connects again every second until it can, then wakes every
/// queue, since what changed meanwhile was not announced. Started by the first ``changes(of:)``: a
/// process that only enqueues holds no listening connection.
final class PostgresListener: Sendable {
    private let database: PostgresDatabase
    private let channel: String
    private let stopping = EventCounter()
    private let state = Locked<(started: Bool, stopped: Bool, next: Int, subscribers: [Int: (queue: String, wake: AsyncStream<Void>.Continuation)])>(
        (false, false, 0, [:]))

    init(database: PostgresDatabase, channel: String) {
        self.database = database
        self.channel = channel
    }

    deinit { stop() }

    /// A wake-up each time `queue` changes in another process (or this one), or the connection was lost
    /// and is back; `nil` when the listener could not be started (no thread, no descriptor).
    func changes(of queue: String) -> AsyncStream<Void>? {
        guard stopping != nil else { return nil }
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let start = state.withLock { state -> Bool? in
            guard !state.stopped else { return nil }
            state.next += 1
            state.subscribers[state.next] = (queue, continuation)
            defer { state.started = true }
            return !state.started
        }
        guard let start else { return nil }
        if start {
            let thread = startDetachedThread(named: "brick-pg-listen") { [self] onNewThread in if onNewThread { listen() } }
            guard thread == 0 else { return nil }
        }
        return stream
    }

    /// Stops listening; every stream of ``changes(of:)`` ends.
    func stop() {
        let ended = state.withLock { state in
            state.stopped = true
            defer { state.subscribers.removeAll() }
            return state.subscribers.values.map(\.wake)
        }
        ended.forEach { $0.finish() }
        stopping?.signal()
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    /// The thread: connect and listen, wait for notifications, connect again after a break.
    private func listen() {
        guard let stopping else { return }
        while !stopped {
            if let connection = try? PostgresConnection(database), (try? connection.execute("LISTEN \(PostgresSchema.identifier(channel))")) != nil {
                wakeAll()
                relay(from: connection, stopping: stopping)
            } else {
                _ = waitUntilReadable(stopping.descriptor, stopping.descriptor, timeoutMilliseconds: 1000)
            }
        }
    }

    /// Passes on notifications until the connection breaks or the listener stops.
    private func relay(from connection: PostgresConnection, stopping: EventCounter) {
        while !stopped {
            guard let ready = waitUntilReadable(connection.socket, stopping.descriptor, timeoutMilliseconds: -1) else { return }
            if ready.second { return }
            guard ready.first else { continue }
            guard connection.consumeInput() else { return }
            let queues = Set(connection.notifications().filter { $0.channel == channel }.map(\.payload))
            guard !queues.isEmpty else { continue }
            state.withLock { state in state.subscribers.values.filter { queues.contains($0.queue) }.map(\.wake) }.forEach { $0.yield() }
        }
    }

    private func wakeAll() {
        state.withLock { state in state.subscribers.values.map(\.wake) }.forEach { $0.yield() }
    }
}
#endif
