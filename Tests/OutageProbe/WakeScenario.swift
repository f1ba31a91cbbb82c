import BrickRequest
import BrickTesting
import Foundation
import TestServers

/// How long waiting requests take to get out once their hosts come back, with nothing but the session in
/// the way: `count` GETs on `hosts` hosts wait (a manual reachability says every host is down; a stub
/// transport answers at once), then every host comes back in one change. Wall time from that change to the
/// last answer; the per-waiter figure stays flat as `count` grows when waking is linear. A benchmark line of
/// `make outage`, not a timed test.
func wakeScenario(count: Int, hosts: Int) async throws -> Report {
    var report = Report()
    let reachability = ManualReachability(.unreachable)
    let stub = StubTransport()
    stub.stub(.where { _ in true }, status: 200, body: Data("ok".utf8))
    let waiting = Countdown()
    var configuration = Session.Configuration()
    configuration.reachability = reachability
    configuration.retryObserver = { event in
        if case .waitingForNetwork = event { waiting.increment() }
    }
    let session = Session(configuration: configuration, transport: stub)
    let calls = (0..<count).map { index in
        Task { await OutageCall("http://h\(index % hosts).test/", session: session).dataResponse() }
    }
    await waiting.wait(for: count)
    let start = ContinuousClock.now
    reachability.goOnline()
    var failures = 0
    for call in calls where await call.value.value != "ok" { failures += 1 }
    let elapsed = start.duration(to: .now)
    let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    report.add("failures", Double(failures))
    report.facts["waiters"] = String(count)
    report.facts["hosts"] = String(hosts)
    report.facts["wake ms"] = String(format: "%.1f", milliseconds)
    report.facts["per waiter µs"] = String(format: "%.2f", milliseconds * 1000 / Double(max(1, count)))
    return report
}
