import CCurl
import Synchronization

/// What other threads ask of the engine thread.
enum EngineCommand: Sendable {
    case start(CurlTransfer)
    case cancel(CurlTransfer)
    /// The streaming consumer caught up: unpause the transfer.
    case resume(CurlTransfer)
    case shutdown
}

/// The only door into the engine thread: a lock-protected command queue plus `curl_multi_wakeup`, the one
/// multi call libcurl allows from another thread. The wake-up is issued only while the engine sleeps in
/// `curl_multi_poll`, and always under the lock, so it can never race the multi handle's cleanup.
final class EngineMailbox: Sendable {
    private struct State: ~Copyable {
        var commands: [EngineCommand] = []
        var multi: MultiHandle?
        var sleeping = false
        var closed = false
    }

    private let state = Mutex(State())

    /// Wraps the multi handle so it can sit in the lock; only `curl_multi_wakeup` is called through it.
    struct MultiHandle: @unchecked Sendable {  // used only under `state`'s lock, for curl_multi_wakeup
        let raw: UnsafeMutableRawPointer
    }

    /// Lets ``post(_:)`` wake `multi`'s engine.
    func attach(multi: UnsafeMutableRawPointer) {
        state.withLock { $0.multi = MultiHandle(raw: multi) }
    }

    /// Queues `command` and wakes the engine if it sleeps. Returns `false` once the engine has shut down.
    @discardableResult
    func post(_ command: EngineCommand) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.commands.append(command)
            if state.sleeping, let multi = state.multi {
                state.sleeping = false
                curl_multi_wakeup(multi.raw)
            }
            return true
        }
    }

    /// Takes every queued command (engine thread).
    func drain() -> [EngineCommand] {
        state.withLock { state in
            state.sleeping = false
            guard !state.commands.isEmpty else { return [] }
            let commands = state.commands
            state.commands.removeAll(keepingCapacity: true)
            return commands
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

    /// Refuses further commands and forgets the multi handle, before the engine cleans it up.
    func close() -> [EngineCommand] {
        state.withLock { state in
            state.closed = true
            state.multi = nil
            let commands = state.commands
            state.commands = []
            return commands
        }
    }
}
