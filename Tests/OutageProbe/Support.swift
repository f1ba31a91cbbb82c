import BrickRequest
import Foundation
import TestServers

/// What a scenario saw: named series of numbers and named facts; the test asserts on them.
struct Report: Encodable {
    var series: [String: [Double]] = [:]
    var facts: [String: String] = [:]
    mutating func add(_ name: String, _ value: Double) { series[name, default: []].append(value) }
}

/// A call to the fault server with retry rules fit for outages.
final class OutageCall: Component, RequestType, StringResponseType {
    static let rules = AutoRetryConfiguration(
        breakTime: .milliseconds(10), maxRetryCount: 3, maxBreakTime: .milliseconds(50), maxNetworkWait: .seconds(10),
        deadline: .seconds(30))
    let method: HTTPMethod
    let session: Session
    let URLString: String
    let autoRetryConfiguration: AutoRetryConfiguration
    let cacheMode: CacheMode

    init(
        _ url: String, method: HTTPMethod = .get, session: Session, rules: AutoRetryConfiguration = OutageCall.rules,
        cacheMode: CacheMode = .default
    ) {
        self.method = method
        self.session = session
        self.URLString = url
        self.autoRetryConfiguration = rules
        self.cacheMode = cacheMode
        super.init()
    }
}

/// Waits until `reachability` says `wanted` for `host`; `false` after 10 s (a safety bound, never the
/// expected path).
func until(_ host: String, is wanted: ReachabilityStatus, _ reachability: any Reachability) async -> Bool {
    await bounded(seconds: 10) {
        let changes = reachability.changes()
        if await reachability.status(of: host) == wanted { return true }
        for await _ in changes where await reachability.status(of: host) == wanted { return true }
        return false
    } ?? false
}

/// What `work` returns, or `nil` once `seconds` have passed first (a safety bound, never the expected path).
func bounded<Value: Sendable>(seconds: Int, _ work: @escaping @Sendable () async -> Value) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask { await work() }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

func milliseconds(from start: UInt64, to end: UInt64) -> Double {
    end >= start ? Double(end - start) / 1e6 : -Double(start - end) / 1e6
}

func describe(_ error: BrickError?) -> String {
    guard let error else { return "none" }
    if case .gaveUp(let failure) = error { return "gaveUp(\(caseName(of: failure.reason)))" }
    return error.transportError.map { "transport(\($0.kind))" } ?? "\(error)"
}

/// A retry reason by its case and values (its description is prose, for people).
func caseName(of reason: RetryFailure.Reason) -> String {
    switch reason {
    case .notReachable(let host): #"notReachable(host: "\#(host)")"#
    case .networkWaitExpired(let host, let waited): #"networkWaitExpired(host: "\#(host)", waited: \#(waited))"#
    case .retriesExhausted(let retries): "retriesExhausted(retries: \(retries))"
    case .notRetryable: "notRetryable"
    case .notIdempotent: "notIdempotent"
    case .deadlineExceeded: "deadlineExceeded"
    case .attemptsExhausted(let lastReason): "attemptsExhausted(lastReason: \(lastReason))"
    case .retryBudgetSpent(let origin): "retryBudgetSpent(origin: \(origin))"
    case .heldBack(let held): "heldBack(\(held.reason), origin: \(held.origin))"
    }
}

/// A session whose retry events are counted: `waiting` counts requests that started waiting for the network.
func makeSession(waiting: Countdown, cache: (any ResponseCache)? = nil, observers: [any CallObserver] = []) -> Session {
    var configuration = Session.Configuration()
    configuration.responseCache = cache
    configuration.observers = observers
    configuration.retryObserver = { event in
        if case .waitingForNetwork = event { waiting.increment() }
    }
    return Session(configuration: configuration)
}
