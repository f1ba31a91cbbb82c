import Foundation
import Glibc
import Testing
import TestServers

/// What the outage probe printed.
struct ProbeReport: Decodable {
    let series: [String: [Double]]
    let facts: [String: String]

    func values(_ name: String) -> [Double] { series[name] ?? [] }
}

/// Runs the outage probe in a private network namespace of its own: as root `unshare -n`, otherwise
/// `unshare -rn` (a user namespace too). Outages there cannot touch the machine's network or other tests.
/// A probe still running after ten minutes (its longest scenario takes well under one, under the sanitizers
/// too) is killed, so that one that waits for an event that never comes fails its test instead of holding
/// the suite.
func runProbe(_ scenario: String...) async throws -> ProbeReport {
    guard let probe = Paths.builtProduct("OutageProbe") else {
        throw TestServerError("OutageProbe was not built beside the tests (swift build --build-tests builds it)")
    }
    let unshare = Paths.executable("unshare") ?? "/usr/bin/unshare"
    let isolation = geteuid() == 0 ? ["-n"] : ["-rn"]
    let directory = try Paths.scratchDirectory("outage")
    let log = directory + "/probe.log"
    let child = try ChildProcess([unshare] + isolation + [probe] + scenario, logPath: log)
    let watchdog = Task {
        try await Task.sleep(for: .seconds(600))  // a deadline, not a wait for the probe
        kill(child.pid, SIGKILL)
    }
    let status = await child.exitStatus()
    watchdog.cancel()
    let output = Paths.read(log)
    unlink(log)
    rmdir(directory)
    guard status == 0, let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else {
        throw TestServerError("outage probe \(scenario) exited with \(status):\n\(output)")
    }
    return try JSONDecoder().decode(ProbeReport.self, from: Data(line.utf8))
}

/// Reachability and retries through real outages: the loopback taken down and brought back in a private
/// network namespace, the real netlink monitor, libcurl and the fault server.
@Suite(.serialized) struct OutageTests {
    /// A HAR file mitmproxy wrote of a session against httpbin (through it as a proxy) replays through the
    /// library with the loopback down: the same calls get the same answers, redirect hops included.
    @Test func aHARFileMitmproxyWroteReplaysWithTheRouteDown() async throws {
        let report = try await runProbe("mitmproxy-cassette")
        #expect(report.facts["statuses"] == "200 200 200 200 200")
        #expect(report.facts["same answers"] == "yes")
        #expect(report.facts["entries"] == "6")
        #expect(report.facts["mismatches"] == "")
    }

    @Test func theMonitorFollowsLinksAddressesRoutesAndCarrier() async throws {
        let report = try await runProbe("monitor")
        let expected = [
            "online 127.0.0.1": "reachable", "online localhost": "reachable",
            "online name.invalid": "unreachable",  // the namespace has no route off the machine: DNS while offline
            "change after going offline": "yes",
            "offline 127.0.0.1": "unreachable", "offline localhost": "unreachable", "offline name.invalid": "unreachable",
            "change after going online": "yes",
            "back online 127.0.0.1": "reachable", "back online localhost": "reachable",
            "carrier 10.9.0.2": "reachable", "no carrier 10.9.0.2": "unreachable", "carrier again 10.9.0.2": "reachable",
        ]
        #expect(report.facts == expected)
    }

    /// Ten seconds of the chaos run (`make chaos` runs minutes with 64 workers; 16 here, so that the rest of
    /// the suite, running beside it, keeps its CPU): mixed GETs and POSTs, one fault each, outages and
    /// refusals on top. No POST applied twice, no GET lost that retrying should cure, no request past its
    /// deadline.
    @Test func tenSecondsOfChaosLoseNothingAndRepeatNoPost() async throws {
        let report = try await runProbe("chaos", "10", "16")
        #expect(Int(report.facts["requests"] ?? "") ?? 0 > 100)  // ~3,000 plain; far fewer under the sanitizers
        #expect(Int(report.facts["posts"] ?? "") ?? 0 > 20)
        #expect(report.facts["posts applied twice"] == "0")
        #expect(report.facts["gets lost"] == "0", "\(report.facts)")
        #expect(report.facts["over deadline"] == "0")
        #expect(Int(report.facts["network changes"] ?? "") ?? 0 >= 5)
    }

    /// Five seconds of outage while calls wait and one is cut: the origin's breaker and budget count none of it.
    @Test func anOutageIsNotTheOriginsFailure() async throws {
        let report = try await runProbe("origin", "5")
        #expect(report.facts["failures"] == "0", "\(report.facts)")
        #expect(report.facts["breaker opened"] == "0")
        #expect(report.facts["breaker"] == "closed")
        #expect(report.facts["budget spent"] == "0.0")
        #expect(report.facts["cut attempts"] == "2")  // cut by the outage, then sent again
        print("RETRY-FIGURE outage_breaker_opened=\(report.facts["breaker opened"] ?? "?") outage_budget_spent=\(report.facts["budget spent"] ?? "?")")
    }

    /// A hundred calls, ten at a time, to an origin that stalls one request in ten for a second: hedged after
    /// 50 ms, the slowest are answered by a hedge; not hedged, they take the second. Run in the probe's own
    /// process (no outage in it): there no other test's work delays the hedges' timers.
    @Test(arguments: [false, true]) func hedgingCutsTheTailOfAStallingOrigin(keepAlive: Bool) async throws {
        let report = keepAlive ? try await runProbe("hedge", "keep-alive") : try await runProbe("hedge")
        let hedged = report.values("hedged ms"), plain = report.values("plain ms")
        #expect(report.facts["failures"] == "0", "\(report.facts)")
        #expect(hedged.count == 100 && plain.count == 100)
        let hedgedP99 = hedged[98], plainP99 = plain[98]
        let extra = Int(report.facts["extra requests"] ?? "") ?? -1
        print("RETRY-FIGURE hedge_p99_ms=\((hedgedP99 * 10).rounded() / 10) unhedged_p99_ms=\((plainP99 * 10).rounded() / 10) hedge_extra_pct=\(extra)")
        #expect(plainP99 >= 1000)  // the stall is the server's: nothing answers it sooner
        #expect(hedgedP99 < 700, "hedged p99 \(hedgedP99) ms")  // a hedge after 50 ms answers, not the stalled second
        #expect(extra >= 1)
    }

    @Test func requestsStartedOfflineAllGoOutWithin100msOfTheLinkReturning() async throws {
        let outages = 20, concurrent = 3
        let report = try await runProbe("outages", String(outages))
        #expect(report.facts.isEmpty, "failures: \(report.facts)")
        #expect(report.values("requests per key") == Array(repeating: Double(concurrent), count: outages))
        let delays = report.values("delay ms")
        #expect(delays.count == outages * concurrent)
        #expect(delays.allSatisfy { $0 > 0 && $0 < 100 }, "delays (ms): \(delays)")
        let sorted = delays.sorted()
        print("outage → request delays over \(outages) outages × \(concurrent) requests: median \(sorted[sorted.count / 2]) ms, worst \(sorted.last ?? 0) ms")
    }

    @Test func aThousandRequestsWaitingForTheRouteAllGoOutOnceWhenItReturns() async throws {
        let count = 1000
        let report = try await runProbe("burst", String(count))
        #expect(report.values("failures") == [0])
        #expect(report.values("requests") == [Double(count)])
        let arrivals = report.values("arrival ms").sorted()
        #expect(arrivals.count == count && arrivals.allSatisfy { $0 > 0 })
        // Measured, not asserted: how long after the route returned the requests reached the server.
        print("burst after an outage, \(count) requests: first \(arrivals.first ?? 0) ms, median \(arrivals[arrivals.count / 2]) ms, last \(arrivals.last ?? 0) ms")
    }

    /// While the route is down, a GET whose stored response may be served stale is answered from the cache
    /// with its age and nothing sent, a POST waits, and when the route returns the stored response is
    /// revalidated once, however many calls it answered.
    @Test func whileTheRouteIsDownTheCacheAnswersAndTheEntryIsRevalidatedOnceWhenItReturns() async throws {
        let report = try await runProbe("offline-cache")
        #expect(report.facts["online"] == "first miss")
        #expect(report.facts["offline"] == "first stale")
        #expect(Int(report.facts["offline age"] ?? "") != nil)
        #expect(report.values("requests while offline") == [1])
        #expect(report.values("posts while offline") == [0])
        #expect(report.facts["post"] == "ok")
        #expect(report.facts["revalidation fields"]?.lowercased() == #"if-none-match: "v1""#)
        #expect(report.facts["after"] == "first hit")
        #expect(report.values("requests in all") == [2])
        let answers = report.values("offline answer ms")
        #expect(answers.count == 3)
        // Measured, not asserted: from the call to the value while offline, and from the route's return to
        // the revalidation's arrival.
        print("offline answers from the cache: \(answers.map { String(format: "%.3f", $0) }) ms; revalidation \(report.values("revalidation delay ms")) ms after the route returned")
    }

    @Test func aWebSocketThroughAnOutageReconnectsOnceAndDeliversItsOutboxInOrderExactlyOnce() async throws {
        let report = try await runProbe("websocket")
        let hundred = (0..<100).map { "m-\($0)" }
        #expect(report.facts["echoes before"] == "all")
        #expect(report.facts["first event"] == "lost")
        #expect(report.values("waiting in outbox") == [100])
        #expect(report.facts["second event"] == "reconnected 1")
        #expect(report.facts["echoes after"] == "all")
        #expect(report.values("reconnects") == [1])
        #expect(report.values("dropped") == [0])
        #expect(report.values("connections") == [2])
        // The server heard the resubscription first on the new connection, then the hundred, each once, in order.
        #expect(report.facts["ledger"] == (["subscribe"] + hundred).joined(separator: ","))
        #expect(report.facts["echoes"] == hundred.joined(separator: ","))
        #expect(report.facts["reader"] == "ended")
    }

    @Test func aTransferCutByAnOutageRecoversAndAPostIsNeverSentTwice() async throws {
        let report = try await runProbe("cut")
        #expect(report.facts["get result"] == "ok")
        #expect(report.facts["get first error"] == "transport(connectionLost)")
        #expect(report.values("get attempts") == [2])
        #expect(report.values("get cut to waiting ms").allSatisfy { $0 < 1000 })  // not the 60 s low-speed timeout
        #expect(report.values("get delay ms").allSatisfy { $0 > 0 && $0 < 100 })
        #expect(report.facts["post error"] == "transport(connectionLost)")
        #expect(report.values("post requests") == [1])
        #expect(report.facts["after outage"] == "ok")
        #expect(report.facts["offline post result"] == "ok")
        #expect(report.values("offline post requests") == [1])
    }

    @Test func failWhenNotReachableFailsAtOnceAndTheNetworkWaitIsBounded() async throws {
        let report = try await runProbe("fail-fast")
        #expect(report.facts["fail fast error"] == #"gaveUp(notReachable(host: "127.0.0.1"))"#)
        #expect(report.values("fail fast ms").allSatisfy { $0 < 100 })
        #expect(report.facts["expired error"]?.hasPrefix("gaveUp(networkWaitExpired") == true)
        #expect(report.values("expired after ms").allSatisfy { $0 >= 300 })
        #expect(report.values("requests") == [0])
    }

    @Test func withTheEnvironmentsProxyTheProxysRouteIsWatchedNotTheOrigins() async throws {
        let report = try await runProbe("environment-proxy")
        // The origin's name cannot be resolved in the namespace: watching it would have failed at once.
        #expect(report.facts["origin status"] == "unreachable")
        #expect(report.facts["online result"] == "ok")
        #expect(report.values("online requests") == [1])
        #expect(report.values("proxied requests") == [1])
        #expect(report.facts["offline error"] == #"gaveUp(notReachable(host: "127.0.0.1"))"#)
        #expect(report.values("offline requests") == [0])
    }

    @Test func queuedRequestsSurviveAKilledProcessAndArriveOnceInOrder() async throws {
        let report = try await runProbe("queue", "6")
        #expect(report.facts["writer ended"] == "killed")
        #expect(report.values("arrivals while offline") == [0])
        #expect(report.facts["reader status"] == "0")
        #expect(report.facts["reader outcomes"] == "1:200 2:200 3:200 4:200 5:200 6:200", "\(report.facts)")
        #expect(report.facts["ledger bodies"] == "0,1,2,3,4,5")
        #expect(report.facts["ledger methods"] == "POST,POST,PUT,POST,POST,PUT")
        #expect(report.facts["keys match"] == "true")
        #expect(report.values("arrivals") == [6], "each request exactly once")
        let gaps = report.values("ms between arrivals")
        #expect(gaps.count == 5 && gaps.allSatisfy { $0 >= 0 })
        // Measured, not asserted: what one delivery costs after the one before it.
        print("queue: ms between arrivals \(gaps.map { ($0 * 10).rounded() / 10 })")
    }

    @Test func aFleetOnPostgresWaitsOutTheOutageThenDeliversEverythingOnceInOrder() async throws {
        let report = try await runProbe("postgres-fleet", "100")
        #expect(report.values("arrivals while offline") == [0])
        #expect(report.values("outcomes") == [200] && report.values("delivered") == [200])
        #expect(report.values("arrivals") == [200], "each request exactly once")
        #expect(report.facts["each once"] == "true")
        #expect(report.facts["queue a in order"] == "true" && report.facts["queue b in order"] == "true")
    }

    @Test func theProbeRefusesToRunOutsideAPrivateNamespace() async throws {
        guard let probe = Paths.builtProduct("OutageProbe") else { throw TestServerError("OutageProbe not built") }
        #expect(try await ChildProcess([probe, "monitor"], logPath: "/dev/null").exitStatus() == 2)
    }
}
