import BrickSystem
import BrickTransport
import CCurl

/// What other threads ask of the engine thread.
enum EngineCommand: Sendable {
    case start(CurlTransfer)
    case cancel(CurlTransfer)
    /// The streaming consumer caught up: unpause the transfer.
    case resume(CurlTransfer)
    /// An upgraded connection's business (``LinkCommand``).
    case link(SocketLink, LinkCommand)
    case shutdown
}

/// The only door into the engine thread: a lock-protected command queue plus an eventfd that the engine
/// watches while it sleeps in `curl_multi_poll`.
///
/// The eventfd belongs to the mailbox (closed in `deinit`), not to the multi handle, so a poster signals it
/// after releasing the lock: the engine it wakes never has to wait for the poster's lock, and a late signal
/// after the engine has shut down is harmless. It is signalled only when the engine said it would sleep.
final class EngineMailbox: Sendable {
    private struct State: ~Copyable {
        var commands: [EngineCommand] = []
        var sleeping = false
        var closed = false
    }

    private let state = Locked(State())
    /// The engine's wake-up counter (an eventfd).
    private let wakeup: EventCounter
    /// The descriptor the engine polls beside libcurl's sockets.
    var wakeupFD: Int32 { wakeup.descriptor }

    /// - Returns: `nil` if the system refuses an eventfd (out of file descriptors).
    init?() {
        guard let wakeup = EventCounter() else { return nil }
        self.wakeup = wakeup
    }


    /// Queues `command` and wakes the engine if it sleeps. Returns `false` once the engine has shut down.
    @discardableResult
    func post(_ command: EngineCommand) -> Bool {
        let (accepted, wake) = state.withLock { state -> (Bool, Bool) in
            guard !state.closed else { return (false, false) }
            state.commands.append(command)
            guard state.sleeping else { return (true, false) }
            state.sleeping = false
            return (true, true)
        }
        if wake { wakeup.signal() }
        return accepted
    }

    /// Swaps every queued command into `batch`, which must be empty; both arrays keep their storage, so a
    /// steady flow of commands allocates nothing (engine thread).
    func drain(into batch: inout [EngineCommand]) {
        state.withLock { state in
            state.sleeping = false
            guard !state.commands.isEmpty else { return }
            swap(&state.commands, &batch)
        }
    }

    /// Marks the engine as about to sleep; `false` if commands arrived meanwhile (then it must not sleep).
    func prepareToSleep() -> Bool {
        state.withLock { state in
            guard state.commands.isEmpty else { return false }
            state.sleeping = true
            return true
        }
    }

    /// Resets the eventfd after it woke the engine (engine thread): one read takes the whole count.
    func acknowledgeWakeup() {
        wakeup.reset()
    }

    /// Refuses further commands and returns those still queued.
    func close() -> [EngineCommand] {
        state.withLock { state in
            state.closed = true
            let commands = state.commands
            state.commands = []
            return commands
        }
    }
}
