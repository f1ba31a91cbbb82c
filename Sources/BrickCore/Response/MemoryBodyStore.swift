import BrickSystem
import BrickTransport
public import FoundationEssentials

/// Gathers the body in memory.
public final class MemoryBodyStore: BodyStore {
    private let buffer = Locked(Data())

    /// An empty store.
    public init() {}

    public func append(_ chunk: Data) { buffer.withLock { $0.append(chunk) } }
    public func data() -> Data { buffer.withLock { $0 } }
    public func clear() { buffer.withLock { $0 = Data() } }
}
