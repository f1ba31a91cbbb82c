import BrickSystem
import BrickTransport

/// Transfers to a host whose connections are all busy wait here, as their request alone, until one is free
/// (engine thread only).
///
/// libcurl would take them at once and make each wait inside the multi handle, holding an easy handle and
/// its receive buffer (~100 KiB of address space) for nothing. Here a transfer is handed to libcurl only
/// when its host has fewer transfers running than the pool has connections for it; the others wait in
/// order, and each fails with `connectTimeout` if no connection became free within its connect timeout (as
/// a connection pool's wait does in other clients), or with `timedOut` if its whole timeout ran out first.
///
/// Counting costs a hash per transfer, so it is done only while the engine is busy: below
/// ``threshold`` transfers in all, no host can be at its limit and nothing is counted.
struct Admission {
    /// Transfers one plain-HTTP host may run at once: the pool's connections per host.
    let perHost: Int
    /// Whether transfers are counted by host now.
    private(set) var counting = false
    private var running: [AdmissionKey: Int] = [:]
    private var lines: [AdmissionKey: WaitLine] = [:]
    private(set) var waitingCount = 0
    /// The earliest moment a waiting transfer may run out of time, and the last time expiries were looked
    /// for (looked for at most every ``expiryGranularity``).
    private var nextExpiry = UInt64.max
    private var lastExpiryScan: UInt64 = 0
    private static let expiryGranularity: UInt64 = 10_000_000

    init(perHost: Int) { self.perHost = max(1, perHost) }

    /// Below this many transfers in the multi handle, every new one is admitted without counting.
    var threshold: Int { perHost }

    /// How many transfers to `key`'s host may run at once: over TLS, HTTP/2 may carry many on one connection
    /// (libcurl then waits for a stream, not a connection, and holds little), so the limit is that of
    /// libcurl's streams per connection.
    private func limit(_ key: AdmissionKey) -> Int { key.multiplexes ? perHost * 100 : perHost }

    /// Starts counting, with the keys of the transfers already running.
    mutating func startCounting(running keys: some Sequence<AdmissionKey>) {
        counting = true
        for key in keys { running[key, default: 0] += 1 }
    }

    /// Stops counting once nothing waits and the engine is well below ``threshold``.
    mutating func stopCountingIfIdle(runningTotal: Int) {
        guard counting, waitingCount == 0, runningTotal <= threshold / 2 else { return }
        counting = false
        running.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
    }

    /// Whether a transfer to `key` may run now; if so it is counted as running.
    mutating func admit(_ key: AdmissionKey) -> Bool {
        guard lines[key]?.isEmpty ?? true else { return false }
        let count = running[key, default: 0]
        guard count < limit(key) else { return false }
        running[key] = count + 1
        return true
    }

    mutating func enqueue(_ transfer: CurlTransfer, key: AdmissionKey, now: UInt64) {
        let waiting = Waiting(transfer: transfer, since: now, deadline: Self.deadline(of: transfer, from: now))
        lines[key, default: WaitLine()].append(waiting)
        waitingCount += 1
        nextExpiry = min(nextExpiry, waiting.deadline)
    }

    /// A transfer to `key` left the multi handle (or never got into it).
    mutating func uncount(_ key: AdmissionKey) {
        if let count = running[key] { running[key] = count > 1 ? count - 1 : nil }
    }

    /// The waiting transfers to `key` now allowed to run, counted as running, in the order they came, each
    /// with how long it waited (cancelled ones are dropped).
    mutating func admitWaiting(_ key: AdmissionKey) -> [(transfer: CurlTransfer, waited: UInt64)] {
        var admitted: [(transfer: CurlTransfer, waited: UInt64)] = []
        guard lines[key] != nil else { return admitted }
        let now = Self.now()
        while running[key, default: 0] < limit(key), let next = lines[key]?.removeFirst() {
            waitingCount -= 1
            if next.transfer.isCancelled { continue }
            running[key, default: 0] += 1
            admitted.append((next.transfer, now &- next.since))
        }
        if lines[key]?.isEmpty == true { lines[key] = nil }
        return admitted
    }

    /// Takes a cancelled transfer out of its line; `false` if it was not waiting.
    mutating func remove(_ transfer: CurlTransfer) -> Bool {
        guard waitingCount > 0 else { return false }
        let key = AdmissionKey(transfer.request)
        guard lines[key]?.remove(transfer) == true else { return false }
        waitingCount -= 1
        if lines[key]?.isEmpty == true { lines[key] = nil }
        return true
    }

    /// The waiting transfers whose time ran out, taken out of their lines, each with the failure to give it.
    mutating func expired(now: UInt64) -> [(transfer: CurlTransfer, failure: TransportError)] {
        guard now >= nextExpiry, now &- lastExpiryScan >= Self.expiryGranularity || lastExpiryScan == 0 else { return [] }
        lastExpiryScan = now
        var failures: [(transfer: CurlTransfer, failure: TransportError)] = []
        var earliest = UInt64.max
        for key in Array(lines.keys) {
            guard var line = lines[key] else { continue }
            let before = line.count
            line.removeAll { waiting in
                guard waiting.deadline <= now else {
                    earliest = min(earliest, waiting.deadline)
                    return false
                }
                failures.append((waiting.transfer, Self.failure(of: waiting, key: key, now: now)))
                return true
            }
            waitingCount -= before - line.count
            lines[key] = line.isEmpty ? nil : line
        }
        nextExpiry = earliest
        return failures
    }

    /// Milliseconds until the next waiting transfer may run out of time, at most `cap`.
    func millisecondsToNextExpiry(now: UInt64, cap: Int32) -> Int32 {
        guard nextExpiry != .max else { return cap }
        let due = max(nextExpiry, lastExpiryScan &+ Self.expiryGranularity)
        guard due > now else { return 0 }
        return Int32(min(UInt64(cap), (due - now) / 1_000_000 + 1))
    }

    /// Every waiting transfer, taken out (the engine is shutting down).
    mutating func drain() -> [CurlTransfer] {
        let all = lines.values.flatMap { $0.transfers }
        lines.removeAll()
        waitingCount = 0
        return all
    }

    /// The monotonic clock, in nanoseconds.
    static func now() -> UInt64 { monotonicNanoseconds() }

    /// When a transfer waiting since `now` fails: its connect timeout, or its whole timeout if shorter.
    private static func deadline(of transfer: CurlTransfer, from now: UInt64) -> UInt64 {
        let options = transfer.request.options
        var limit = options.connectTimeout
        if let total = options.timeout ?? (transfer.mode == .collect ? options.collectTimeout : nil) { limit = min(limit, total) }
        let nanoseconds = limit.components.seconds >= Int64(UInt32.max) ? UInt64.max / 2 : UInt64(max(0, limit.milliseconds)) * 1_000_000
        return now &+ nanoseconds
    }

    private static func failure(of waiting: Waiting, key: AdmissionKey, now: UInt64) -> TransportError {
        let options = waiting.transfer.request.options
        let total = options.timeout ?? (waiting.transfer.mode == .collect ? options.collectTimeout : nil)
        let waited = (now &- waiting.since) / 1_000_000
        if let total, total < options.connectTimeout {
            return TransportError(.timedOut, message: "the request's timeout ran out after \(waited) ms waiting for a free connection to \(key.origin)")
        }
        return TransportError(.connectTimeout, message: "no connection to \(key.origin) became free within \(waited) ms")
    }
}

/// A transfer waiting for a connection: its request, since when, and until when.
struct Waiting {
    let transfer: CurlTransfer
    let since: UInt64
    let deadline: UInt64
}

/// One host's waiting transfers, in order; taken from the front without moving the rest.
struct WaitLine {
    private var items: [Waiting] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }
    var count: Int { items.count - head }
    var transfers: [CurlTransfer] { items[head...].map(\.transfer) }

    mutating func append(_ waiting: Waiting) { items.append(waiting) }

    mutating func removeFirst() -> Waiting? {
        guard head < items.count else { return nil }
        defer {
            head += 1
            if head == items.count { items.removeAll(keepingCapacity: true); head = 0 }
        }
        return items[head]
    }

    mutating func remove(_ transfer: CurlTransfer) -> Bool {
        guard let index = items[head...].firstIndex(where: { $0.transfer === transfer }) else { return false }
        items.remove(at: index)
        return true
    }

    mutating func removeAll(where shouldRemove: (Waiting) -> Bool) {
        items.removeSubrange(..<head)
        head = 0
        items.removeAll(where: shouldRemove)
    }
}

/// What libcurl counts connections per host by, or something finer (never coarser, so that a host is never
/// held to less than libcurl would allow): the URL's scheme and authority, the Unix socket, and the identity
/// whose pool the connection comes from.
struct AdmissionKey: Hashable {
    /// The scheme and authority, without user info (messages show it).
    let origin: String
    let socket: String?
    let identity: ConnectionIdentity?
    let multiplexes: Bool

    init(_ request: TransportRequest) {
        let url = request.url
        let authorityStart = url.firstRange(of: "://")?.upperBound ?? url.startIndex
        let end = url[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        let hostStart = url[authorityStart..<end].lastIndex(of: "@").map { url.index(after: $0) } ?? authorityStart
        origin = String(url[..<authorityStart]) + url[hostStart..<end]
        socket = request.options.unixSocketPath
        identity = ConnectionIdentity(request.options)
        multiplexes = CurlTransfer.isHTTPS(url) && request.options.httpVersion == .automatic
    }
}
