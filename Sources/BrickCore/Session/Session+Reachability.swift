extension Session {
    /// Ends transfers (collected and streamed) whose host became unreachable, at once, with `connectionLost` (the request
    /// may have reached the server), instead of leaving them to hang until a timeout; the retry rules then
    /// decide what follows: an idempotent request waits for the network and goes again, a POST does not.
    ///
    /// Subscribes before returning, so that no change after the session's creation is missed.
    ///
    /// It is also what wakes the requests parked waiting for a route (``RouteWaiters``).
    static func watchRoutes(of registry: RunningRegistry, waking waiters: RouteWaiters, with reachability: any Reachability) -> Task<Void, Never> {
        let changes = reachability.changes()
        return Task.detached {
            for await _ in changes {
                await waiters.routesChanged(reachability)
                var statuses: [String: ReachabilityStatus] = [:]
                for (id, host) in registry.abortableHosts() {
                    if statuses[host] == nil { statuses[host] = await reachability.status(of: host) }
                    guard statuses[host] == .unreachable else { continue }
                    registry.abort(id, with: TransportError(
                        .connectionLost, message: "the route to \(host) went away during the transfer"))
                }
            }
            waiters.changesEnded()
        }
    }
}
