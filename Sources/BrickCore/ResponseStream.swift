/// The events of a streamed request: `.head`, then `.body` chunks as they arrive, then `.end` with the
/// metrics. Iterate it once; stopping early cancels the transfer.
///
/// The transfer pauses while you are more than `TransportOptions.streamBufferSize` bytes behind, so a slow
/// consumer keeps memory bounded whatever the body's size.
public struct ResponseStream: AsyncSequence, Sendable {
    public typealias Element = TransportEvent

    let events: TransportEventStream
    let registration: Registration

    public func makeAsyncIterator() -> Iterator {
        Iterator(inner: events.makeAsyncIterator(), registration: registration)
    }

    /// Cancels the transfer.
    public func cancel() { events.cancel() }

    public struct Iterator: AsyncIteratorProtocol {
        var inner: TransportEventStream.Iterator
        let registration: Registration

        public mutating func next() async throws -> TransportEvent? {
            do {
                let event = try await inner.next()
                switch event {
                case .end?, nil: registration.end()
                default: break
                }
                return event
            } catch {
                registration.end()
                throw error
            }
        }
    }
}

/// Removes a streamed request from its session's running list when the stream ends or is dropped.
final class Registration: Sendable {
    private let registry: RunningRegistry
    private let id: UInt64

    init(registry: RunningRegistry, id: UInt64) {
        self.registry = registry
        self.id = id
    }

    func end() { registry.remove(id) }
    deinit { registry.remove(id) }
}
