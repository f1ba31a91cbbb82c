extension Session {
    /// Shuts the session down gracefully, and returns when everything it holds is released.
    ///
    /// 1. From now on, every new request (and every further attempt of a running call) fails at once with
    ///    ``BrickError/shutDown``, without being sent.
    /// 2. Running requests have `gracePeriod` (on the session's clock) to finish.
    /// 3. The ones still running then are cancelled: they fail with `cancelled`.
    /// 4. The session's transport stops: for a libcurl session its engine thread ends and every connection is
    ///    closed before this returns. The watch on routes ends too. (The process's reachability monitor is
    ///    shared by every session and stays.)
    ///
    /// Calling it again waits for the same end. A shut-down session cannot be started again: make a new one.
    /// - Parameter gracePeriod: How long running requests may take to finish. Default is 30 seconds.
    public func shutdown(gracePeriod: Duration = .seconds(30)) async {
        registry.close()
        let clock = configuration.clock
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.registry.drained() }
            group.addTask { try? await clock.sleep(for: gracePeriod) }
            await group.next()
            group.cancelAll()
        }
        registry.cancel(owner: nil, because: TransportError(.cancelled, message: "the session shut down before the request finished"))
        routeWatch.ifMade?.cancel()
        await madeTransport.ifMade?.shutdown()
    }

    /// Whether ``shutdown(gracePeriod:)`` has begun: new requests are refused.
    public var isShutDown: Bool { registry.isClosed }
}
