import BrickSystem
import CCurl
import CCurlShim

/// Owns the engine thread. Other threads talk to it only through ``mailbox``.
final class CurlEngine: Sendable {
    let mailbox: EngineMailbox
    /// Raised when the engine thread has ended its loop.
    let stopped = EngineStopped()
    /// The engine thread, for the checks of the transfers' engine sides.
    let engineThread = EngineThread()
    /// The mutexes that guard what each transfer's caller and the engine hand each other
    /// (``CurlTransfer/withLock(_:)``), one picked per transfer.
    let stripes = LockStripes()

    /// Initializes libcurl once per process. SIGPIPE is left as the application set it (a process-wide
    /// ignore would be inherited by every program the application spawns): the engine thread, where all
    /// of libcurl's socket writes happen, blocks it instead (``EngineLoop/run()``).
    private static let processSetup: Void = {
        curl_global_init(Int(CURL_GLOBAL_ALL))
    }()

    /// Held while a multi handle is made, so that two engines made at once tell their descriptors apart.
    private static let creation = Locked(())

    /// A new multi handle, with the socket pair libcurl 7.88 opens in it to wake itself (without
    /// close-on-exec, and no option asks for it) marked close-on-exec: found by comparing the process's
    /// descriptors before and after, under ``creation``. A process spawned meanwhile by another thread could
    /// still inherit them; from the moment this returns, none does.
    private static func makeMulti() -> UnsafeMutableRawPointer? {
        creation.withLock { _ in
            let before = OpenDescriptors.current()
            let multi = curl_multi_init()
            OpenDescriptors.markUnixSocketsCloseOnExec(OpenDescriptors.current().subtracting(before))
            return multi
        }
    }

    /// Starts the engine thread with its own multi handle.
    ///
    /// - Returns: `nil` if libcurl could not create a multi handle or the thread could not start.
    init?(configuration: CurlTransport.Configuration) {
        Self.processSetup
        guard let mailbox = EngineMailbox() else { return nil }
        self.mailbox = mailbox
        guard let multi = Self.makeMulti() else { return nil }
        // The multi handle closes connections through an internal handle that takes `CURLOPT_NOSIGNAL`
        // from the last handle added; until one is, it ignores SIGPIPE process-wide around closing (see
        // `EasyHandle.make()`). Adding one of ours at once gives it the setting even if nothing is sent.
        if let first = EasyHandle.make() {
            _ = curl_multi_add_handle(multi, first.raw)
            _ = curl_multi_remove_handle(multi, first.raw)
            first.destroy()
        }
        _ = brick_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.maxConnections)
        _ = brick_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        _ = brick_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, configuration.maxConnections)
        let loop = EngineLoop(multi: multi, mailbox: mailbox, thread: engineThread, configuration: configuration, stopped: stopped)
        guard case .success(let thread) = startThread(named: "brick-curl", { onNewThread in onNewThread ? loop.run() : loop.abandon() })
        else { return nil }
        self.thread = Locked(thread)
    }

    /// The engine thread until it is joined (``shutdownAndWait()``) or detached (when the engine goes away
    /// without one); `nil` after either.
    private let thread: Locked<JoinableThread?>

    deinit { thread.withLock { $0 }?.detach() }

    /// Asks the engine thread to cancel what runs, free everything and end.
    func shutdown() { mailbox.post(.shutdown) }

    /// Asks the engine thread to end, and returns once it has: every transfer failed, every connection closed.
    func shutdownAndWait() async {
        shutdown()
        await stopped.wait()
        // The loop has ended: the thread only returns from its body now, so the join is immediate.
        let joinable = thread.withLock { thread in
            defer { thread = nil }
            return thread
        }
        joinable?.join()
    }
}

