import BrickRequest
import BrickSystem
import BrickTransport
import Foundation
import TestServers

/// `seconds` of chaos: `workers` (64 in `make chaos`) send mixed requests to the fault server (kept-alive connections, so
/// faults land on fresh and reused ones) while the loopback goes down and up and the listener refuses now
/// and then. Each request meets one fault at most once (`times=1`), chosen at random: resets before and
/// after the body, a connection closed after the request was read, truncated and dripped bodies, a stall
/// cut by a timeout, 429 and 503 with `Retry-After`, refusals, outages. POSTs carry a 64 KiB body, so that
/// resets land before the request (on accept), during its body, and after it.
///
/// The ledger: every POST has a key of its own, and the server must never have seen one twice; every GET
/// meets a fault that retrying cures, so every GET must succeed unless its retry rules ran out (outages and
/// refusals can come on top of its fault: those are counted apart); every request must end within its
/// deadline; and every failure is a typed `BrickError`, counted by kind.
func chaosScenario(seconds: Int, workers: Int) async throws -> Report {
    var report = Report()
    let server = try FaultServer(keepAlive: true)
    defer { server.stop() }
    // Every request meets a fault here, so an origin budget would refuse most retries by design (the retry
    // safety tests prove that): this run proves what the retries themselves do, with no budget to stop them.
    var configuration = Session.Configuration()
    configuration.originProtection.retryBudget = nil
    let session = Session(configuration: configuration)
    let ledger = Ledger()
    let end = ContinuousClock.now + .seconds(seconds)

    let network = Task {
        var outages = 0
        while ContinuousClock.now < end {
            try? await Task.sleep(for: .milliseconds(1500))  // chaos timing, not synchronization
            if outages % 4 == 2 {
                server.refuse()
                try? await Task.sleep(for: .milliseconds(200))
                try? server.serve()
            } else if outages % 4 == 3 {
                server.resetOnAccept(true)  // resets before any request is read
                try? await Task.sleep(for: .milliseconds(200))
                server.resetOnAccept(false)
            } else {
                try? Network.goOffline()
                try? await Task.sleep(for: .milliseconds(300))
                _ = try? Network.goOnline()
            }
            outages += 1
        }
        return outages
    }
    await withTaskGroup(of: Void.self) { group in
        for worker in 0..<workers {
            group.addTask {
                var generator = SeededGenerator(seed: UInt64(worker) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
                var number = 0
                while ContinuousClock.now < end {
                    await chaosRequest("w\(worker)n\(number)", server: server, session: session, ledger: ledger, random: &generator)
                    number += 1
                }
            }
        }
    }
    let outages = await network.value
    _ = try? Network.goOnline()
    let totals = ledger.totals(server)
    report.facts["requests"] = "\(totals.requests)"
    report.facts["posts"] = "\(totals.posts)"
    report.facts["posts applied twice"] = "\(totals.postsTwice)"
    report.facts["gets lost"] = "\(totals.getsLost)"
    report.facts["gets out of retries"] = "\(totals.getsOutOfRetries)"
    report.facts["over deadline"] = "\(totals.overDeadline)"
    report.facts["network changes"] = "\(outages)"
    for (kind, count) in totals.failures { report.facts["failure \(kind)"] = "\(count)" }
    for (index, story) in totals.stories.prefix(20).enumerated() { report.facts["story \(index)"] = story }
    report.add("slowest s", totals.slowest)
    return report
}

/// The faults a request may meet, each once.
private let faults = [
    "/ok", "/reset", "/reset-during-body", "/close-after-read", "/reset-mid-body", "/truncated",
    "/status?code=503&retry_after=0", "/status?code=429&retry_after=1", "/drip?bytes=40&ms=5", "/hang",
]

/// The retry rules of the chaos: quick, bounded by a deadline.
private let chaosRules = AutoRetryConfiguration(
    breakTime: .milliseconds(20), maxRetryCount: 6, maxBreakTime: .milliseconds(200), maxNetworkWait: .seconds(10),
    deadline: .seconds(30))

private func chaosRequest(
    _ key: String, server: FaultServer, session: Session, ledger: Ledger, random: inout SeededGenerator
) async {
    let post = Int.random(in: 0..<4, using: &random) == 0
    let fault = faults.randomElement(using: &random) ?? "/ok"
    let url = server.baseURL + fault + (fault.contains("?") ? "&" : "?") + "times=1&key=" + key
    var options = TransportOptions()
    options.timeout = .seconds(1)  // ends a `/hang`; a retry follows for a GET
    let call = ChaosCall(url, method: post ? .post : .get, session: session, options: options)
    let start = ContinuousClock.now
    let response = await call.dataResponse()
    let attempts = response.attempts.map { describe($0.error) }.joined(separator: " → ")
    ledger.record(key: key, post: post, error: response.error, took: start.duration(to: .now), story: fault + ": " + attempts)
}

/// A call of the chaos, with its retry rules and options.
final class ChaosCall: Component, RequestType, StringResponseType {
    static let body = Data(repeating: 0x62, count: 64 << 10)
    let method: HTTPMethod
    let session: Session
    let URLString: String
    let transportOptions: TransportOptions
    var autoRetryConfiguration: AutoRetryConfiguration { chaosRules }
    init(_ url: String, method: HTTPMethod, session: Session, options: TransportOptions) {
        self.method = method
        self.session = session
        self.URLString = url
        self.transportOptions = options
        super.init()
    }

    func encodeBody(into request: inout TransportRequest) throws(RequestEncodingError) {
        if method == .post { request.body = .data(Self.body) }
    }
}

/// What happened to every request, by key.
final class Ledger: Sendable {
    private struct Entry { let key: String, post: Bool, failure: String?, seconds: Double, story: String }
    private let entries = Locked<[Entry]>([])

    func record(key: String, post: Bool, error: BrickError?, took: Duration, story: String) {
        let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
        entries.withLock { $0.append(Entry(key: key, post: post, failure: error.map(describe), seconds: seconds, story: story)) }
    }

    struct Totals {
        var requests = 0, posts = 0, postsTwice = 0, getsLost = 0, getsOutOfRetries = 0, overDeadline = 0, slowest = 0.0
        var failures: [String: Int] = [:]
        /// What happened to each POST the server saw twice, and to each GET lost: the fault and every attempt.
        var stories: [String] = []
    }

    /// The ledger against what the server saw.
    func totals(_ server: FaultServer) -> Totals {
        entries.withLock { entries in
            var totals = Totals()
            for entry in entries {
                totals.requests += 1
                totals.slowest = max(totals.slowest, entry.seconds)
                if entry.seconds > 45 { totals.overDeadline += 1 }  // the 30 s deadline plus a 15 s margin
                if let failure = entry.failure { totals.failures[failure, default: 0] += 1 }
                if entry.post {
                    totals.posts += 1
                    if server.count(entry.key) > 1 {
                        totals.postsTwice += 1
                        totals.stories.append("POST \(entry.key) seen \(server.count(entry.key))×: \(entry.story)")
                    }
                } else if let failure = entry.failure {
                    // A GET that used up its retries (several outages and refusals on top of its own fault)
                    // ended as its rules say; any other failure of a GET is one retrying should have cured.
                    if failure.hasPrefix("gaveUp(retriesExhausted") || failure.hasPrefix("gaveUp(deadlineExceeded")
                        || failure.hasPrefix("gaveUp(networkWaitExpired")
                    {
                        totals.getsOutOfRetries += 1
                    } else {
                        totals.getsLost += 1
                        totals.stories.append("GET \(entry.key) lost: \(entry.story)")
                    }
                }
            }
            return totals
        }
    }
}

/// A small deterministic generator (SplitMix64), so that a run can be repeated.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
