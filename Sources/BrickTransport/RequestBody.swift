public import FoundationEssentials

/// A request body: bytes in memory, files streamed from disk, async sequences of chunks, or any run of
/// those sent one after the other.
///
/// Only ``Part/data(_:)`` parts live in memory; files are read from disk as the transfer sends them, and
/// streams are pulled as the connection drains them, so a body of any size costs a bounded amount of memory.
/// When every part's length is known the body is sent with `Content-Length`; otherwise it is sent chunked.
public struct RequestBody: Sendable {
    /// One piece of a body.
    public enum Part: Sendable {
        /// Bytes in memory.
        case data(Data)
        /// A whole file, read from disk while sending; its length is taken when the transfer starts.
        case file(path: String)
        /// Chunks pulled from an async sequence while sending.
        case stream(BodyStream)
    }

    /// The pieces, in the order they are sent.
    public private(set) var parts: [Part]

    /// A body made of `parts`, with adjacent in-memory parts joined.
    public init(_ parts: [Part]) {
        self.parts = []
        for part in parts { append(part) }
    }

    /// A body of one part (empty bytes make no part), in one array made at its size.
    private init(only part: Part) {
        if case .data(let bytes) = part, bytes.isEmpty { parts = [] } else { parts = [part] }
    }

    /// Bytes in memory.
    public static func data(_ data: Data) -> RequestBody { RequestBody(only: .data(data)) }
    /// A whole file, streamed from disk.
    public static func file(path: String) -> RequestBody { RequestBody(only: .file(path: path)) }
    /// Chunks pulled from `stream`.
    public static func stream(_ stream: BodyStream) -> RequestBody { RequestBody(only: .stream(stream)) }

    /// Adds a piece after the others.
    public mutating func append(_ part: Part) {
        if case .data(let more) = part, case .data(let bytes)? = parts.last {
            parts[parts.count - 1] = .data(bytes + more)
        } else if case .data(let bytes) = part, bytes.isEmpty {
            return
        } else {
            parts.append(part)
        }
    }

    /// The bytes, when the body lives entirely in memory (no file or stream part).
    public var data: Data? {
        switch parts.count {
        case 0: Data()
        case 1: if case .data(let bytes) = parts[0] { bytes } else { nil }
        default: nil
        }
    }

    /// Whether the body can be sent again from the start (a redirect or a replay): true unless it holds
    /// a stream, which can be iterated only once.
    public var isReplayable: Bool {
        !parts.contains { if case .stream = $0 { true } else { false } }
    }
}

/// An async sequence of body chunks, type-erased, with its total length when known.
///
/// A stream can be iterated once: a body holding one cannot follow a redirect that resends it, nor be retried.
public struct BodyStream: Sendable {
    /// The total number of bytes the sequence yields, or `nil` when unknown (the body is then sent chunked).
    public let length: Int64?
    private let iterate: @Sendable ((Data) async throws -> Void) async throws -> Void

    /// Wraps `sequence`, which must yield exactly `length` bytes when a length is given.
    public init<Chunks: AsyncSequence & Sendable>(_ sequence: Chunks, length: Int64?) where Chunks.Element == Data {
        self.length = length
        iterate = { consume in
            for try await chunk in sequence { try await consume(chunk) }
        }
    }

    /// Calls `consume` with every chunk, in order; stops at the first error.
    public func forEachChunk(_ consume: (Data) async throws -> Void) async throws {
        try await iterate(consume)
    }
}
