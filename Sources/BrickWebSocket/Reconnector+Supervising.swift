import BrickCore
import BrickTransport

extension Reconnector {
    /// Reads each connection in turn; when one is lost, opens the next (``reopen(after:)``), until a close,
    /// a clean end, or the policy gives up.
    func supervise(_ first: WebSocket) async {
        var socket = first
        var flushes = false
        var failures = 0
        var opened = ContinuousClock.now
        while true {
            let end = await read(socket, flushing: flushes)
            let closed = state.withLock { state -> Bool in
                state.socket = nil
                return state.closed
            }
            if closed || Task.isCancelled { return finish(.success(())) }
            guard let lost = Self.loss(end, socket.peerClose) else { return finish(end) }
            eventSink.yield(.lost(lost))
            tell(.lost(reason: lost.description))
            let lostAt = ContinuousClock.now
            failures = Self.failuresCarried(failures, lived: lostAt - opened, policy)
            guard let next = await reopen(after: lost, failures: &failures) else { return }
            opened = ContinuousClock.now
            let count = state.withLock { state -> Int? in
                guard !state.closed else { return nil }
                state.socket = next
                state.flushing = true
                state.reconnects += 1
                return state.reconnects
            }
            guard let count else {
                await next.close()
                return finish(.success(()))
            }
            let after = ContinuousClock.now - lostAt
            eventSink.yield(.reconnected(count: count, after: after))
            tell(.reconnected(count: count, after: after))
            socket = next
            flushes = true
        }
    }

    /// Hands `socket`'s messages on until it ends, failing it when the route to the host goes down; on a new
    /// connection (`flushing`), the resubscribe hook and the outbox run beside the reading.
    private func read(_ socket: WebSocket, flushing: Bool) async -> Result<Void, WebSocketError> {
        let watch = Task { await self.watchRoute(failing: socket) }
        let flush = flushing ? Task { await self.resubscribeAndFlush(socket) } : nil
        defer { watch.cancel() }
        var messages = socket.messages.makeAsyncIterator()
        let end: Result<Void, WebSocketError>
        do throws(WebSocketError) {
            while let message = try await messages.next() { await inbox.push(message) }
            end = .success(())
        } catch {
            end = .failure(error)
        }
        // A resubscribe hook still waiting (for an answer that cannot come now) is cancelled; the flush is
        // waited for, so that what it could not send is back in the outbox before the next connection's.
        flush?.cancel()
        await flush?.value
        return end
    }

    /// The loss to reconnect after, or `nil` when the messages end as the connection did: a broken connection
    /// or a missed pong, or a peer that closed with a code asking to come back (going away, an internal error,
    /// a restart, try again later, a bad gateway).
    static func loss(_ end: Result<Void, WebSocketError>, _ peerClose: WebSocketClose?) -> WebSocketError? {
        switch end {
        case .failure(let error): return error.kind == .connectionLost || error.kind == .pingTimedOut ? error : nil
        case .success:
            guard let close = peerClose, [1001, 1011, 1012, 1013, 1014].contains(close.code) else { return nil }
            return WebSocketError(.connectionLost, "the peer closed with \(close.code) \(close.reason), asking to come back")
        }
    }

    /// The failed attempts the next reopening starts from: none after a connection that lived longer than the
    /// policy's longest delay, else those before it and one for it, so that a server that accepts and drops
    /// every connection at once is backed off from (and given up on) as one that refuses.
    static func failuresCarried(_ failures: Int, lived: Duration, _ policy: ReconnectPolicy) -> Int {
        lived > policy.maxDelay ? 0 : failures + 1
    }

    /// The next connection, by the policy: waits for the route, backs off with jitter, takes a token of the
    /// origin's retry budget, connects, counting `failures` on. `nil` when closed meanwhile or given up (then
    /// the messages ended).
    private func reopen(after lost: WebSocketError, failures: inout Int) async -> WebSocket? {
        var last = lost
        let clock = session.configuration.clock
        while failures < policy.maxAttempts {
            if policy.waitsForRoute { await waitForRoute() }
            do { try await clock.sleep(for: policy.delay(after: failures, unit: Double.random(in: 0..<1))) } catch {}
            if state.withLock({ $0.closed }) || Task.isCancelled {
                finish(.success(()))
                return nil
            }
            guard session.takeRetryToken(for: url) else {
                failures += 1
                last = WebSocketError(.call, "the origin's retry budget refused a reconnect (OriginProtection.retryBudget)")
                continue
            }
            do throws(WebSocketError) {
                let next = try await connect()
                session.noteRepeatSucceeded(for: url)
                return next
            } catch {
                failures += 1
                last = error
            }
        }
        eventSink.yield(.gaveUp(last))
        finish(.failure(last))
        return nil
    }

    /// Waits while the session's reachability says the route to the host is down, at most the policy's
    /// ``ReconnectPolicy/maxRouteWait``.
    private func waitForRoute() async {
        guard let host = TransportRequest.host(of: url) else { return }
        let reachability = session.reachability, clock = session.configuration.clock, limit = policy.maxRouteWait
        let changes = reachability.changes()  // subscribed before the look: no change is missed
        guard await reachability.status(of: host) == .unreachable else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in changes where await reachability.status(of: host) != .unreachable { return }
            }
            group.addTask { try? await clock.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Fails `socket` as lost as soon as the session's reachability says the route to the host went down:
    /// a connection over a route that is gone would only be found dead by its heartbeat.
    private func watchRoute(failing socket: WebSocket) async {
        guard let host = TransportRequest.host(of: url) else { return }
        let reachability = session.reachability
        for await _ in reachability.changes() where await reachability.status(of: host) == .unreachable {
            socket.core.fail(WebSocketError(.connectionLost, "the route to \(host) went down"))
            return
        }
    }

    /// On a new connection: the resubscribe hook, then the outbox in order (sends made meanwhile join its
    /// end). A message that cannot be sent goes back to the outbox's head, for the next connection.
    private func resubscribeAndFlush(_ socket: WebSocket) async {
        do { try await resubscribe(socket) } catch {
            socket.core.fail(WebSocketError(.connectionLost, "the resubscribe hook failed: \(error)"))
            return
        }
        while true {
            let next = state.withLock { state -> WebSocketMessage? in
                guard state.outboxCount > 0 else {
                    state.flushing = false
                    return nil
                }
                defer { state.outboxStart += 1 }
                return state.outbox[state.outboxStart]
            }
            guard let next else { return }
            do throws(WebSocketError) { try await Self.send(next, on: socket) } catch {
                state.withLock { $0.outbox.insert(next, at: $0.outboxStart) }
                return
            }
        }
    }

    /// Ends the messages and the events with `end`.
    func finish(_ end: Result<Void, WebSocketError>) {
        inbox.finish(end)
        eventSink.finish()
        switch end {
        case .success: tell(.ended(failure: nil))
        case .failure(let error): tell(.ended(failure: error.description))
        }
    }
}
