import BrickSystem
import BrickTransport

/// One request on its way through the libcurl transport, in one object: what its caller holds (the
/// `TransportTransfer`), the state the caller and the engine hand each other (``SharedState``, behind the
/// mutex this transfer picked from the engine's row: ``withLock(_:)``), and the engine's own part
/// (``EngineSide``: the easy handle, the head being parsed, the collected body), which only the engine
/// thread touches.
///
/// `@unchecked Sendable`, for two reasons one can point to: what both sides touch is ``shared``, read and
/// written only inside ``withLock(_:)``, under the mutex this transfer picked from the engine's
/// ``LockStripes``; the engine's part is reached only through ``engine``, whose every access checks, in release builds too,
/// that it runs on this transfer's engine thread (as swift-nio's `NIOLoopBound` does). That part is made on
/// the caller's thread from defaults, before the transfer is posted to the
/// engine; the engine fills it in when it launches the transfer (``launch(_:)``).
final class CurlTransfer: TransportTransfer, TransportEventSource, @unchecked Sendable {
    typealias Outcome = Result<TransportResponse, TransportError>
    typealias EventOutcome = Result<TransportEvent?, TransportError>

    /// How the transfer was started: collected (``response()``) or streamed (``events()``).
    enum Mode { case collect, stream }

    let request: TransportRequest
    let transport: CurlTransport
    /// What the caller and the engine hand each other, reached through ``withLock(_:)`` only (a mutex of the
    /// engine's row guards it, not the runtime's exclusivity checks).
    @exclusivity(unchecked) private var shared = SharedState()
    /// The mutex of the engine's row (``CurlEngine/stripes``) that guards ``shared``: picked once, in `init`,
    /// and valid as long as ``transport`` (and with it the engine), which this transfer holds.
    @exclusivity(unchecked) private var lock: StripeLock

    /// The engine's part, reached through ``engine`` only. Made here, on the caller's thread, of defaults
    /// (nothing any other thread holds); filled in by the engine when it launches the transfer
    /// (``launch(_:)``).
    @exclusivity(unchecked) private var engineSide = EngineSide()

    init(request: TransportRequest, transport: CurlTransport) {
        self.request = request
        self.transport = transport
        lock = transport.engine.stripes.lock(for: transport)  // a placeholder until `self` exists
        lock = transport.engine.stripes.lock(for: self)
    }

    /// The engine's part of the transfer, borrowed or changed in place. Every access checks that it runs on
    /// the engine thread (a thread identity compared, release builds too), and that the engine launched the
    /// transfer.
    var engine: EngineSide {
        @inline(__always) _read {
            checkEngineAccess()
            yield engineSide
        }
        @inline(__always) _modify {
            checkEngineAccess()
            yield &engineSide
        }
    }

    /// Runs `body` on the engine side in place, after the same check as ``engine``: for code the compiler
    /// would not inline ``engine``'s accessors into (a large function), where each access would copy the
    /// whole engine side into a frame of its own.
    @inline(__always)
    func withEngine<Result>(_ body: (inout EngineSide) throws(Never) -> Result) -> Result {
        checkEngineAccess()
        return body(&engineSide)
    }

    /// Fills in the engine side (engine thread), once, when the engine hands the transfer to libcurl.
    func launch(_ fill: (inout EngineSide) -> Void) {
        precondition(transport.engine.engineThread.isCurrent, "a transfer is launched on its engine thread only")
        precondition(engineSide.engineThread == 0, "a transfer is launched once")
        fill(&engineSide)
        engineSide.engineThread = currentThreadID()
    }

    /// Whether the engine launched the transfer (engine thread).
    var isLaunched: Bool {
        precondition(transport.engine.engineThread.isCurrent, "a transfer's engine side is read on its engine thread only")
        return engineSide.engineThread != 0
    }

    /// That the calling thread is the engine thread that launched the transfer: one identity compared with
    /// the one the engine side was launched on (zero, which no thread has, before the launch).
    @inline(__always)
    private func checkEngineAccess() {
        precondition(engineSide.engineThread == currentThreadID(), "a transfer's engine side is touched on its engine thread only, once launched")
    }

    /// Runs `body` with the state the caller and the engine hand each other, under the mutex this transfer
    /// picked from the engine's row (``lock``): one of a fixed few, so that a transfer allocates no mutex of
    /// its own. `body` touches this transfer's state only.
    @inline(__always)
    func withLock<Result>(_ body: (inout SharedState) throws(Never) -> Result) -> Result {
        lock.withLock { () throws(Never) -> Result in body(&shared) }
    }

    /// How the transfer was started; read by the engine thread when it launches the transfer.
    var mode: Mode { withLock { $0.mode ?? .collect } }

    var isCancelled: Bool { withLock { $0.cancelled } }
}
