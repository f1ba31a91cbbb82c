import BrickSystem
import BrickTransport

/// A transfer's events with the first ones — up to and including the head — read ahead, handed on again
/// before the rest: a streamed attempt is judged (and retried) on whether its head arrives, before the caller
/// sees anything.
final class ReadAheadSource: TransportEventSource {
    private let rest: TransportEventStream
    private let readAhead: Locked<[TransportEvent]>

    private init(rest: TransportEventStream, readAhead: [TransportEvent]) {
        self.rest = rest
        self.readAhead = Locked(readAhead)
    }

    /// Reads `events` up to the head; the stream that yields them all again, and the head (`nil` if the
    /// transfer ended without one). A failure before the head cancels the transfer and is thrown.
    static func open(_ events: TransportEventStream) async throws(TransportError) -> (TransportEventStream, ResponseHead?) {
        var read: [TransportEvent] = []
        do {
            while let event = try await events.nextEvent() {
                read.append(event)
                if case .head(let head) = event {
                    return (TransportEventStream(source: ReadAheadSource(rest: events, readAhead: read)), head)
                }
                if case .end = event { break }
            }
        } catch {
            events.cancel(because: error)
            throw error
        }
        return (TransportEventStream(source: ReadAheadSource(rest: events, readAhead: read)), nil)
    }

    func nextEvent() async throws(TransportError) -> TransportEvent? {
        let first = readAhead.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if let first { return first }
        return try await rest.nextEvent()
    }

    func cancel(because reason: TransportError) { rest.cancel(because: reason) }
}
