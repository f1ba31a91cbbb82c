import BrickRequest
import TestServers

/// While the route is down, a GET whose stored response may be served stale (`.offlineFirst`) is answered
/// from the cache at once, with its age, and nothing is sent; a POST waits for the route. When the route
/// returns, the stored response is revalidated once (however many calls it answered meanwhile), and the
/// `304` makes it fresh again.
func offlineCacheScenario() async throws -> Report {
    var report = Report()
    let server = try FaultServer()
    defer { server.stop() }
    server.script("cached", [
        "HTTP/1.1 200 OK\r\nCache-Control: max-age=0\r\nETag: \"v1\"\r\nContent-Length: 5\r\nConnection: close\r\n\r\nfirst",
        "HTTP/1.1 304 Not Modified\r\nCache-Control: max-age=600\r\nETag: \"v1\"\r\nConnection: close\r\n\r\n",
    ])
    let waiting = Countdown()
    let ended = Countdown()
    let session = makeSession(waiting: waiting, cache: MemoryResponseCache(), observers: [EndedCalls(key: "cached", ended: ended)])
    let url = server.baseURL + "/scripted?key=cached"
    func get() async -> DataResponse<String> { await OutageCall(url, session: session, cacheMode: .offlineFirst).dataResponse() }

    let online = await get()
    report.facts["online"] = "\(online.value ?? describe(online.error)) \(online.cacheStatus)"

    try Network.goOffline()
    guard await until("127.0.0.1", is: .unreachable, SystemReachability.shared) else {
        throw TestServerError("the monitor never saw the outage")
    }
    for _ in 0..<3 {
        let start = FaultServer.monotonicNanoseconds()
        let offline = await get()
        report.add("offline answer ms", milliseconds(from: start, to: FaultServer.monotonicNanoseconds()))
        report.facts["offline"] = "\(offline.value ?? describe(offline.error)) \(offline.cacheStatus)"
        report.facts["offline age"] = offline.response?.head.headers["Age"] ?? "none"
    }
    let post = Task { await OutageCall(server.baseURL + "/ok?key=offline-cache-post", method: .post, session: session).dataResponse() }
    await waiting.wait(for: 1)
    report.add("requests while offline", Double(server.count("cached")))
    report.add("posts while offline", Double(server.count("offline-cache-post")))

    let up = try Network.goOnline()
    await server.waitForArrivals("cached", count: 2)
    if let revalidation = server.arrivals("cached").dropFirst().first {
        report.add("revalidation delay ms", milliseconds(from: up, to: revalidation))
    }
    let posted = await post.value
    report.facts["post"] = posted.value ?? describe(posted.error)
    report.facts["revalidation fields"] = server.fieldLines("cached").dropFirst().first?
        .first { $0.lowercased().hasPrefix("if-none-match:") } ?? "none"
    // The first call and the revalidation sent something (the answers from the cache did not): the
    // revalidation's 304 is stored before its call ends.
    await ended.wait(for: 2)
    let after = await get()
    report.facts["after"] = "\(after.value ?? describe(after.error)) \(after.cacheStatus)"
    report.add("requests in all", Double(server.count("cached")))
    return report
}

/// Counts the calls to `/scripted?key=KEY` that ended having sent something: observers see every call, but
/// one the cache answered made no attempt; a revalidation makes one.
struct EndedCalls: CallObserver {
    let key: String
    let ended: Countdown

    func observeCall(_ call: ObservedCall, _ body: () async -> CallEnd) async -> CallEnd {
        let end = await body()
        if call.url.hasSuffix("key=" + key), end.attempts > 0 { ended.increment() }
        return end
    }

    func observeAttempt(_ attempt: ObservedAttempt, _ body: () async -> AttemptEnd) async -> AttemptEnd { await body() }
}
