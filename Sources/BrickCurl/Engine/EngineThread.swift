import BrickSystem
import Synchronization

/// Which thread an engine runs on, for the checks of engine-bound state (``CurlTransfer/engine``): the
/// engine thread enters it when its loop starts, and every access to a transfer's engine side asks whether
/// it runs there, in release builds too.
final class EngineThread: Sendable {
    private let identity = Atomic<UInt>(0)

    /// Called by the engine thread before it touches any transfer (and by the thread that frees a loop that
    /// never ran).
    func enter() { identity.store(currentThreadID(), ordering: .relaxed) }

    /// Whether the calling thread is the engine's.
    @inline(__always)
    var isCurrent: Bool { identity.load(ordering: .relaxed) == currentThreadID() }
}
