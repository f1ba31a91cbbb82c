import BrickSystem
import BrickTransport
import CNetlink

/// The monitor's state and thread. The thread owns the netlink socket and evaluates hosts; callers read the
/// cache, queue new hosts and subscribe, all through one `Locked`.
final class NetlinkMonitor: Sendable {
    fileprivate struct Host {
        var addresses: [IPAddress]?
        var status: ReachabilityStatus
        var lastAsked: UInt64
    }

    fileprivate struct State {
        var hosts: [String: Host] = [:]
        var waiting: [String: [CheckedContinuation<ReachabilityStatus, Never>]] = [:]
        var subscribers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextID = 0
        var tick: UInt64 = 0
        var stopped = false
    }

    /// Hosts kept; the least recently asked ones are forgotten past this.
    static let capacity = 512

    private let state = Locked(State())
    private let netlink: Int32
    /// Raised to wake the thread from its wait on the netlink socket.
    private let wakeup: EventCounter
    private let debounceMilliseconds: Int32

    init(debounce: Duration) throws(ReachabilityError) {
        let opened = brick_nl_monitor_open()
        guard opened >= 0 else { throw ReachabilityError(step: "netlink socket", errno: -opened) }
        guard let wakeup = EventCounter() else {
            let failure = ReachabilityError(step: "eventfd", errno: SystemError.last.code)
            FileDescriptor(raw: opened).close()
            throw failure
        }
        netlink = opened
        self.wakeup = wakeup
        let (seconds, attoseconds) = debounce.components
        debounceMilliseconds = Int32(clamping: max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        try startThread()
    }

    // MARK: Callers

    func cachedStatus(of host: String) -> ReachabilityStatus? {
        state.withLock { state in
            if state.stopped { return .unknown }
            guard let index = state.hosts.index(forKey: host) else { return nil }  // one hash, the entry changed in place
            state.tick += 1
            state.hosts.values[index].lastAsked = state.tick
            return state.hosts.values[index].status
        }
    }

    /// Queues `host` for its first evaluation on the monitor's thread; `waiter` gets the result.
    func evaluate(_ host: String, then waiter: CheckedContinuation<ReachabilityStatus, Never>) {
        let answer: ReachabilityStatus? = state.withLock { state in
            if state.stopped { return .unknown }
            if let entry = state.hosts[host] { return entry.status }
            state.waiting[host, default: []].append(waiter)
            return nil
        }
        if let answer { return waiter.resume(returning: answer) }
        wake()
    }

    func subscribe() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id: Int? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) } }
        return stream
    }

    func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { wake() }
    }

    private func wake() { wakeup.signal() }

    // MARK: The monitor's thread

    private func startThread() throws(ReachabilityError) {
        let result = startDetachedThread(named: "brick-netlink") { [self] onNewThread in if onNewThread { run() } }
        guard result == 0 else { throw ReachabilityError(step: "pthread_create", errno: result) }
    }

    private func run() {
        var burstStart: Double?
        while !state.withLock({ $0.stopped }) {
            guard let ready = waitUntilReadable(netlink, wakeup.descriptor, timeoutMilliseconds: burstStart == nil ? -1 : debounceMilliseconds)
            else { break }
            if ready.first {
                let changes = brick_nl_monitor_drain(netlink)
                if changes < 0 { break }
                if changes > 0 && burstStart == nil { burstStart = Self.now() }
            }
            if ready.second {
                wakeup.reset()
                evaluateNewHosts()
            }
            if let start = burstStart, ready.timedOut || Self.now() - start >= Double(debounceMilliseconds) * 10 {
                burstStart = nil
                evaluateAllHosts()
            }
        }
        finish()
    }

    /// First evaluation of hosts callers are waiting for.
    private func evaluateNewHosts() {
        let hosts = state.withLock { Array($0.waiting.keys) }
        for host in hosts {
            let addresses = RouteCheck.resolve(host)
            let status = Self.status(addresses)
            let waiters = state.withLock { state in
                state.tick += 1
                state.hosts[host] = Host(addresses: addresses, status: status, lastAsked: state.tick)
                state.forgetOldHosts()
                return state.waiting.removeValue(forKey: host) ?? []
            }
            waiters.forEach { $0.resume(returning: status) }
        }
    }

    /// After a change: every known host again (names that failed to resolve are tried again), then tell
    /// every subscriber.
    private func evaluateAllHosts() {
        let known = state.withLock { $0.hosts.mapValues(\.addresses) }
        var results: [String: ([IPAddress]?, ReachabilityStatus)] = [:]
        for (host, addresses) in known {
            let current = addresses ?? RouteCheck.resolve(host)
            results[host] = (current, Self.status(current))
        }
        let subscribers = state.withLock { state in
            for (host, result) in results where state.hosts[host] != nil {
                state.hosts[host]?.addresses = result.0
                state.hosts[host]?.status = result.1
            }
            return Array(state.subscribers.values)
        }
        subscribers.forEach { $0.yield() }
    }

    /// A host with addresses is as reachable as its best address. A name that cannot be resolved is
    /// unreachable when there is no route off this machine at all (DNS while offline), unknown otherwise.
    private static func status(_ addresses: [IPAddress]?) -> ReachabilityStatus {
        if let addresses { return RouteCheck.status(of: addresses) }
        return RouteCheck.status(of: IPAddress.elsewhere) == .unreachable ? .unreachable : .unknown
    }

    private func finish() {
        let (waiters, subscribers) = state.withLock { state in
            state.stopped = true
            defer {
                state.waiting = [:]
                state.subscribers = [:]
            }
            return (state.waiting.values.flatMap { $0 }, Array(state.subscribers.values))
        }
        waiters.forEach { $0.resume(returning: .unknown) }
        subscribers.forEach { $0.finish() }
    }

    /// The socket closes only when neither the thread nor any caller can use it any more (the wake-up
    /// counter closes with its own object).
    deinit { FileDescriptor(raw: netlink).close() }

    /// Milliseconds on the monotonic clock.
    private static func now() -> Double { Double(monotonicNanoseconds()) / 1_000_000 }
}

extension NetlinkMonitor.State {
    /// Forgets the least recently asked hosts beyond the capacity.
    fileprivate mutating func forgetOldHosts() {
        guard hosts.count > NetlinkMonitor.capacity else { return }
        let excess = hosts.count - NetlinkMonitor.capacity
        for (host, _) in hosts.sorted(by: { $0.value.lastAsked < $1.value.lastAsked }).prefix(excess) {
            hosts[host] = nil
        }
    }
}
