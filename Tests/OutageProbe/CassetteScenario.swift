import BrickCassette
import BrickRequest
import Foundation
import TestServers

/// A HAR file written by another tool replays through the library with the route down: httpbin and
/// mitmproxy (as a forward proxy that saves what it carried as HAR) run in this namespace; the same
/// `Component` calls go through the proxy live, then, with the loopback down, answer from mitmproxy's file.
func mitmproxyCassetteScenario() async throws -> Report {
    var report = Report()
    let httpbin = try Httpbin()
    defer { httpbin.stop() }
    let mitmproxy = try Mitmproxy()
    defer { mitmproxy.removeFiles() }
    var configuration = Session.Configuration()
    configuration.transportOptions.proxy = .through(Proxy(url: mitmproxy.url))
    let live = Session(configuration: configuration)
    let calls: [(HTTPMethod, String)] = [
        (.get, httpbin.url("/get?x=1")), (.post, httpbin.url("/post")), (.get, httpbin.url("/gzip")),
        (.get, httpbin.url("/bytes/256?seed=2")), (.get, httpbin.url("/redirect/1")),
    ]
    func answers(_ session: Session) async -> [String] {
        var answers: [String] = []
        for (method, url) in calls {
            let response = await OutageCall(url, method: method, session: session, rules: .none).dataResponse()
            answers.append("\(response.response?.head.status ?? 0) " + (response.response?.body.base64EncodedString() ?? "no body"))
        }
        return answers
    }
    let recorded = await answers(live)
    let path = mitmproxy.stop()
    try Network.goOffline()
    guard await until("127.0.0.1", is: .unreachable, SystemReachability.shared) else {
        throw TestServerError("the monitor never saw the outage")
    }
    let cassette = try Cassette(path, mode: .replay)
    let replayed = await answers(cassette.session(like: live))
    report.facts["statuses"] = recorded.map { String($0.prefix(3)) }.joined(separator: " ")
    report.facts["same answers"] = replayed == recorded ? "yes" : "no: \(replayed) against \(recorded)"
    report.facts["entries"] = String(cassette.entries.count)
    report.facts["mismatches"] = cassette.mismatches.map(\.description).joined(separator: "; ")
    return report
}
