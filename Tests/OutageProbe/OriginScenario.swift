import BrickRequest
import TestServers

/// The route to an origin is down for `seconds` while calls wait for it, and a call's body is cut by the
/// outage: an outage is reachability's business, so the origin's breaker (on for every call, opening after
/// one failure in two) stays closed, its retry budget is not charged, and every call succeeds once the
/// route returns.
func originScenario(seconds: Int) async throws -> Report {
    var report = Report()
    let server = try FaultServer()
    defer { server.stop() }
    let waiting = Countdown(), opened = Countdown()
    var configuration = Session.Configuration()
    configuration.originProtection = try OriginProtection(
        circuitBreaker: CircuitBreaker(window: 2, minimumCalls: 2, failureRate: 0.5), breaksEveryCall: true)
    configuration.retryObserver = { event in
        if case .waitingForNetwork = event { waiting.increment() }
        if case .circuitOpened = event { opened.increment() }
    }
    let session = Session(configuration: configuration)
    let cut = Task { await OutageCall(server.baseURL + "/drip?bytes=300&ms=10&times=1&key=cut", session: session).dataResponse() }
    await server.waitForArrivals("cut")
    try Network.goOffline()
    let calls = (0..<8).map { _ in Task { await OutageCall(server.baseURL + "/ok?key=waiting", session: session).dataResponse() } }
    await waiting.wait(for: 9)
    try? await Task.sleep(for: .seconds(seconds))  // how long the outage lasts, not synchronization
    _ = try Network.goOnline()
    var failures = 0
    for call in [cut] + calls where await call.value.value == nil { failures += 1 }
    let status = session.originStatuses().first
    report.facts["failures"] = "\(failures)"
    report.facts["breaker opened"] = "\(opened.count)"
    report.facts["breaker"] = status.map { "\($0.breaker)" } ?? "none"
    report.facts["budget spent"] = "\(30 - (status?.retryTokens ?? 0))"
    report.facts["cut attempts"] = "\(await cut.value.attempts.count)"
    return report
}
