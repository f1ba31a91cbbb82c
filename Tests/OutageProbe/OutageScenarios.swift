import Glibc
import BrickRequest
import TestServers

/// `outages` outages in a row; in each, `concurrent` GETs start while offline and must all go out when the
/// link returns. Records the delay from the link's return to each request's arrival at the server.
func outagesScenario(outages: Int, concurrent: Int) async throws -> Report {
    var report = Report()
    let server = try FaultServer()
    defer { server.stop() }
    let waiting = Countdown()
    let session = makeSession(waiting: waiting)
    for round in 0..<outages {
        try Network.goOffline()
        guard await until("127.0.0.1", is: .unreachable, SystemReachability.shared) else {
            throw TestServerError("the monitor never saw outage \(round)")
        }
        let key = "outage\(round)"
        let calls = (0..<concurrent).map { _ in
            Task { await OutageCall(server.baseURL + "/ok?key=\(key)", session: session).dataResponse() }
        }
        await waiting.wait(for: concurrent * (round + 1))
        let linkUp = try Network.goOnline()
        for call in calls {
            let response = await call.value
            report.add("attempts", Double(response.attempts.count))
            if response.value != "ok" { report.facts["failure \(round)"] = describe(response.error) }
        }
        report.add("requests per key", Double(server.count(key)))
        for arrival in server.arrivals(key) { report.add("delay ms", milliseconds(from: linkUp, to: arrival)) }
    }
    return report
}

/// A GET whose body is cut by an outage is ended at once and retried when the link returns; a POST cut the
/// same way is not sent twice; a POST started offline goes out once when the link returns.
func cutScenario() async throws -> Report {
    var report = Report()
    let server = try FaultServer()
    defer { server.stop() }
    let waiting = Countdown()
    let session = makeSession(waiting: waiting)

    // A GET dripping a 3-second body.
    let get = Task { await OutageCall(server.baseURL + "/drip?bytes=300&ms=10&times=1&key=get", session: session).dataResponse() }
    await server.waitForArrivals("get")
    let down = FaultServer.monotonicNanoseconds()
    try Network.goOffline()
    await waiting.wait(for: 1)
    report.add("get cut to waiting ms", milliseconds(from: down, to: FaultServer.monotonicNanoseconds()))
    let up = try Network.goOnline()
    let got = await get.value
    report.facts["get result"] = got.value ?? describe(got.error)
    report.facts["get first error"] = describe(got.attempts.first?.error)
    report.add("get attempts", Double(got.attempts.count))
    if let retried = server.arrivals("get").dropFirst().first { report.add("get delay ms", milliseconds(from: up, to: retried)) }

    // A POST the server received and never answers, cut by an outage.
    let post = Task { await OutageCall(server.baseURL + "/hang?key=post", method: .post, session: session).dataResponse() }
    await server.waitForArrivals("post")
    let cut = FaultServer.monotonicNanoseconds()
    try Network.goOffline()
    let posted = await post.value
    report.add("post cut to failure ms", milliseconds(from: cut, to: FaultServer.monotonicNanoseconds()))
    report.facts["post error"] = describe(posted.error)
    _ = try Network.goOnline()
    _ = await until("127.0.0.1", is: .reachable, SystemReachability.shared)
    let probe = await OutageCall(server.baseURL + "/ok?key=after", session: session).dataResponse()
    report.facts["after outage"] = probe.value ?? describe(probe.error)
    report.add("post requests", Double(server.count("post")))

    // A POST started while offline.
    try Network.goOffline()
    _ = await until("127.0.0.1", is: .unreachable, SystemReachability.shared)
    let before = waiting.count
    let offlinePost = Task { await OutageCall(server.baseURL + "/ok?key=offline-post", method: .post, session: session).dataResponse() }
    await waiting.wait(for: before + 1)
    _ = try Network.goOnline()
    let sent = await offlinePost.value
    report.facts["offline post result"] = sent.value ?? describe(sent.error)
    report.add("offline post requests", Double(server.count("offline-post")))
    return report
}

/// `failWhenNotReachable` fails at once while offline, and the wait for the network ends at `maxNetworkWait`.
func failFastScenario() async throws -> Report {
    var report = Report()
    let server = try FaultServer()
    defer { server.stop() }
    let session = makeSession(waiting: Countdown())
    try Network.goOffline()
    _ = await until("127.0.0.1", is: .unreachable, SystemReachability.shared)

    var failFast = OutageCall.rules
    failFast.failWhenNotReachable = true
    var start = FaultServer.monotonicNanoseconds()
    let fast = await OutageCall(server.baseURL + "/ok?key=fast", session: session, rules: failFast).dataResponse()
    report.add("fail fast ms", milliseconds(from: start, to: FaultServer.monotonicNanoseconds()))
    report.facts["fail fast error"] = describe(fast.error)

    var shortWait = OutageCall.rules
    shortWait.maxNetworkWait = .milliseconds(300)
    start = FaultServer.monotonicNanoseconds()
    let expired = await OutageCall(server.baseURL + "/ok?key=expired", session: session, rules: shortWait).dataResponse()
    report.add("expired after ms", milliseconds(from: start, to: FaultServer.monotonicNanoseconds()))
    report.facts["expired error"] = describe(expired.error)
    _ = try Network.goOnline()
    report.add("requests", Double(server.count("fast") + server.count("expired")))
    return report
}

/// With the environment naming a proxy, the route watched is the proxy's: a request for a name that cannot
/// be resolved here (no network but the loopback) goes out through the proxy on the loopback, and fails at
/// once only when the loopback, the proxy's route, is down.
func environmentProxyScenario() async throws -> Report {
    var report = Report()
    let server = try FaultServer()
    defer { server.stop() }
    let proxy = try ForwardProxy(everyHostTo: server.port)
    defer { proxy.stop() }
    // Set before the first request reads the process's proxy variables (this process runs one scenario).
    setenv("http_proxy", "http://127.0.0.1:\(proxy.port)", 1)
    let session = makeSession(waiting: Countdown())
    var failFast = OutageCall.rules
    failFast.failWhenNotReachable = true
    let origin = "http://api.example.com"
    report.facts["origin status"] = "\(await SystemReachability.shared.status(of: "api.example.com"))"

    let online = await OutageCall(origin + "/ok?key=online", session: session, rules: failFast).dataResponse()
    report.facts["online result"] = online.value ?? describe(online.error)
    report.add("online requests", Double(server.count("online")))
    report.add("proxied requests", Double(proxy.requests.filter { $0.line.hasPrefix("GET http://api.example.com/") }.count))

    try Network.goOffline()
    _ = await until("127.0.0.1", is: .unreachable, SystemReachability.shared)
    let offline = await OutageCall(origin + "/ok?key=offline", session: session, rules: failFast).dataResponse()
    report.facts["offline error"] = describe(offline.error)
    _ = try Network.goOnline()
    report.add("offline requests", Double(server.count("offline")))
    return report
}

/// `count` GETs start while the route is down and all wait for it; when it returns they go out over the
/// pool's connections. Records when each reached the server, from the moment the route returned.
func burstScenario(count: Int) async throws -> Report {
    var report = Report()
    let server = try FaultServer(keepAlive: true)
    defer { server.stop() }
    let waiting = Countdown()
    let session = makeSession(waiting: waiting)
    try Network.goOffline()
    guard await until("127.0.0.1", is: .unreachable, SystemReachability.shared) else {
        throw TestServerError("the monitor never saw the outage")
    }
    let calls = (0..<count).map { _ in Task { await OutageCall(server.baseURL + "/ok?key=burst", session: session).dataResponse() } }
    await waiting.wait(for: count)
    let routeUp = try Network.goOnline()
    var failures = 0
    for call in calls where await call.value.value != "ok" { failures += 1 }
    report.add("failures", Double(failures))
    report.add("requests", Double(server.count("burst")))
    for arrival in server.arrivals("burst") { report.add("arrival ms", milliseconds(from: routeUp, to: arrival)) }
    let perConnection = server.requestsPerConnection("burst")
    report.facts["connections"] = String(perConnection.count)
    report.facts["busiest connection"] = String(perConnection.values.max() ?? 0)
    return report
}

/// The burst's yardstick: the same `count` GETs sent by raw libcurl in C (`curl-bench B2` at `curlBench`, 64 in
/// flight, cold connections) the moment the route returns after the same outage, to the same server; each
/// arrival measured from the route's return as in ``burstScenario(count:)``.
func libcurlBurstScenario(count: Int, curlBench: String) async throws -> Report {
    var report = Report()
    let server = try FaultServer(keepAlive: true)
    defer { server.stop() }
    try Network.goOffline()
    guard await until("127.0.0.1", is: .unreachable, SystemReachability.shared) else {
        throw TestServerError("the monitor never saw the outage")
    }
    let routeUp = try Network.goOnline()
    let status = try ChildProcess([curlBench, "B2", server.baseURL + "/ok?key=burst", String(count), "64"], logPath: "/dev/stderr").wait()
    report.add("failures", status == 0 ? 0 : 1)
    report.add("requests", Double(server.count("burst")))
    for arrival in server.arrivals("burst") { report.add("arrival ms", milliseconds(from: routeUp, to: arrival)) }
    let perConnection = server.requestsPerConnection("burst")
    report.facts["connections"] = String(perConnection.count)
    report.facts["busiest connection"] = String(perConnection.values.max() ?? 0)
    return report
}
