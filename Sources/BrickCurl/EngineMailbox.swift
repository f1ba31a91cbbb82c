import CCurl
import Glibc
import Synchronization

/// What other threads ask of the engine thread.
enum EngineCommand: Sendable {
    case start(CurlTransfer)
    case cancel(CurlTransfer)
    /// The streaming consumer caught up: unpause the transfer.
    case resume(CurlTransfer)
    case shutdown
}

/// The only door into the engine thread: a lock-protected command queue plus a pipe that the engine
/// watches while it sleeps in `curl_multi_poll`.
///
/// The pipe belongs to the mailbox (closed in `deinit`), not to the multi handle, so a poster signals it
/// after releasing the lock: the engine it wakes never has to wait for the poster's lock, and a late signal
/// after the engine has shut down is harmless. It is signalled only when the engine said it would sleep.
final class EngineMailbox: Sendable {
    private struct State: ~Copyable {
        var commands: [EngineCommand] = []
        var sleeping = false
        var closed = false
    }

    private let state = Mutex(State())
    /// The engine's wake-up pipe (read end, write end): non-blocking, so that neither a signal nor a drain
    /// can ever block.
    let wakeupFD: Int32
    private let signalFD: Int32

    /// - Returns: `nil` if the system refuses a pipe (out of file descriptors).
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakeupFD = ends[0]
        signalFD = ends[1]
    }

    deinit {
        Glibc.close(wakeupFD)
        Glibc.close(signalFD)
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
        if wake {
            var byte: UInt8 = 1
            _ = write(signalFD, &byte, 1)  // EAGAIN only when the pipe is full: the engine is woken anyway
        }
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

    /// Empties the pipe after it woke the engine (engine thread).
    func acknowledgeWakeup() {
        var bytes: (UInt64, UInt64) = (0, 0)
        while withUnsafeMutableBytes(of: &bytes, { read(wakeupFD, $0.baseAddress, $0.count) }) == 16 {}
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
