import BrickRequest
import TestServers

/// A hedged GET (the stock brick, `Hedging.standard`: 50 ms, two hedges at most).
final class HedgedCall: Component, GETRequestType, HedgedRequestType, StringResponseType {
    let session: Session
    let URLString: String
    init(_ url: String, session: Session) {
        self.session = session
        self.URLString = url
        super.init()
    }
}

/// A hundred calls, ten at a time, against an origin that stalls one request in ten for a second: hedged,
/// then not. In a process of its own, so that no other test's work on the test process's threads delays
/// its timers (a busy test process held every task of it for seconds).
func hedgeScenario(keepAlive: Bool) async throws -> Report {
    var report = Report()
    let server = try FaultServer(keepAlive: keepAlive)
    defer { server.stop() }
    let session = Session()
    let hedged = await latencies { await HedgedCall(server.baseURL + "/slow?ms=1000&every=10&key=hedged", session: session).dataResponse().value }
    let plain = await latencies { await OutageCall(server.baseURL + "/slow?ms=1000&every=10&key=plain", session: session, rules: .none).dataResponse().value }
    report.series["hedged ms"] = hedged.times
    report.series["plain ms"] = plain.times
    report.facts["failures"] = "\(hedged.failures + plain.failures)"
    report.facts["extra requests"] = "\(server.count("hedged") - 100)"
    return report
}

/// The times of a hundred calls made ten at a time, in milliseconds, and how many got no value.
private func latencies(_ call: @escaping @Sendable () async -> String?) async -> (times: [Double], failures: Int) {
    await withTaskGroup(of: [Double?].self) { group in
        for _ in 0..<10 {
            group.addTask {
                var times: [Double?] = []
                for _ in 0..<10 {
                    let start = ContinuousClock.now
                    let value = await call()
                    let took = (ContinuousClock.now - start).components
                    times.append(value == nil ? nil : Double(took.seconds) * 1000 + Double(took.attoseconds) / 1e15)
                }
                return times
            }
        }
        var all: [Double?] = []
        for await times in group { all += times }
        return (all.compactMap { $0 }.sorted(), all.count(where: { $0 == nil }))
    }
}
