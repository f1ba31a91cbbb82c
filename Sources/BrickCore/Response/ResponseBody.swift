public import FoundationEssentials

extension ResponseStream {
    /// Starts the transfer and returns once the response head has arrived, with the body still to come: the
    /// shape of `URLSession.bytes(for:)`, for code that decides on the status before reading (an OpenAPI
    /// transport, a proxy).
    ///
    /// Progress events are left out; read the stream itself to see them.
    /// - Throws: ``BrickError`` when the transfer fails before the head (after the retry rules, if any).
    public func head() async throws(BrickError) -> (ResponseHead, ResponseBody) {
        let (events, registration) = try await starter.begin()
        do {
            while let event = try await events.nextEvent() {
                if case .head(let head) = event { return (head, ResponseBody(events: events, registration: registration, head: head)) }
                if case .end = event { break }
            }
        } catch {
            registration?.end()
            throw .transport(error)
        }
        registration?.end()
        throw .transport(TransportError(.invalidResponse, message: "the transfer ended without a response head"))
    }
}

/// The body of a streamed response after its head: chunks as they arrive, with back-pressure (the transfer
/// pauses while the reader is `TransportOptions.streamBufferSize` bytes behind). Iterate it once; stopping
/// early, or dropping the iterator, cancels the transfer.
public struct ResponseBody: AsyncSequence, Sendable {
    /// What it yields: body bytes, decompressed, in arrival order.
    public typealias Element = Data
    /// What it throws.
    public typealias Failure = BrickError

    private let events: TransportEventStream
    private let registration: Registration?
    /// The body's length from `Content-Length` when the body arrives as sent (no `Content-Encoding`), else `nil`.
    public let expectedLength: Int64?

    init(events: TransportEventStream, registration: Registration?, head: ResponseHead) {
        self.events = events
        self.registration = registration
        let encoded = head.headers["Content-Encoding"].map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
        expectedLength = encoded ? nil : head.headers["Content-Length"].flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// Cancels the transfer.
    public func cancel() { events.cancel() }

    public func makeAsyncIterator() -> Iterator { Iterator(lifetime: BodyLifetime(events: events, registration: registration)) }

    /// Reads the chunks in order.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let lifetime: BodyLifetime

        /// The next chunk, in the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(BrickError) -> Data? { try await next() }

        /// The next chunk; `nil` after the end.
        public nonisolated(nonsending) mutating func next() async throws(BrickError) -> Data? {
            do {
                while let event = try await lifetime.events.nextEvent() {
                    switch event {
                    case .body(let chunk): return chunk
                    case .end:
                        lifetime.finish()
                        return nil
                    default: continue
                    }
                }
                lifetime.finish()
                return nil
            } catch {
                lifetime.finish()
                throw .transport(error)
            }
        }
    }

    /// Cancels the transfer when the last copy of the iterator goes away before the end.
    fileprivate final class BodyLifetime {
        let events: TransportEventStream
        let registration: Registration?
        private var finished = false
        init(events: TransportEventStream, registration: Registration?) {
            self.events = events
            self.registration = registration
        }
        func finish() {
            finished = true
            registration?.end()
        }
        deinit { if !finished { events.cancel() } }
    }
}
