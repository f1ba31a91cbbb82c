import BrickSystem
import BrickTransport
import CNetlink
import Glibc

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
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let debounceMilliseconds: Int32

    init(debounce: Duration) throws(ReachabilityError) {
        let opened = brick_nl_monitor_open()
        guard opened >= 0 else { throw ReachabilityError(step: "netlink socket", errno: -opened) }
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else {
            let failure = ReachabilityError(step: "pipe", errno: errno)
            close(opened)
            throw failure
        }
        for fd in pipe {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        netlink = opened
        wakeRead = pipe[0]
        wakeWrite = pipe[1]
        let (seconds, attoseconds) = debounce.components
        debounceMilliseconds = Int32(clamping: max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        try startThread()
    }

    // MARK: Callers

    func cachedStatus(of host: String) -> ReachabilityStatus? {
        state.withLock { state in
            if state.stopped { return .unknown }
            guard var entry = state.hosts[host] else { return nil }
            state.tick += 1
            entry.lastAsked = state.tick
            state.hosts[host] = entry
            return entry.status
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

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    // MARK: The monitor's thread

    private func startThread() throws(ReachabilityError) {
        let result = startDetachedThread(named: "brick-netlink") { [self] onNewThread in if onNewThread { run() } }
        guard result == 0 else { throw ReachabilityError(step: "pthread_create", errno: result) }
    }

    private func run() {
        var burstStart: Double?
        while !state.withLock({ $0.stopped }) {
            var fds = [pollfd(fd: netlink, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, burstStart == nil ? -1 : debounceMilliseconds)
            if ready < 0 && errno != EINTR { break }
            if fds[0].revents != 0 {
                let changes = brick_nl_monitor_drain(netlink)
                if changes < 0 { break }
                if changes > 0 && burstStart == nil { burstStart = Self.now() }
            }
            if fds[1].revents != 0 {
                var sink = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &sink, sink.count) > 0 {}
                evaluateNewHosts()
            }
            if let start = burstStart, ready == 0 || Self.now() - start >= Double(debounceMilliseconds) * 10 {
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

    /// The descriptors close only when neither the thread nor any caller can use them any more.
    deinit {
        close(netlink)
        close(wakeRead)
        close(wakeWrite)
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
    }
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
