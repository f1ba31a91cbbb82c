// Runs one outage scenario inside a private network namespace (`unshare -n outage-probe SCENARIO`) and
// prints what it saw as one JSON line; BrickReachabilityTests start it and assert on the report.
import Foundation
import Glibc
import TestServers

let arguments = CommandLine.arguments.dropFirst()
guard Network.isPrivateNamespace() else {
    FileHandle.standardError.write(Data("outage-probe: refusing to run outside a private network namespace (use unshare -n)\n".utf8))
    exit(2)
}
// The queue scenario's own processes, started by it inside the same namespace: they leave the link as it is.
switch arguments.first {
case "queue-writer":
    let values = Array(arguments.dropFirst())
    do { try await queueWriter(values[0], values[1], Int(values[2]) ?? 5) } catch {
        FileHandle.standardError.write(Data("outage-probe: \(error)\n".utf8))
        exit(1)
    }
case "queue-reader":
    let values = Array(arguments.dropFirst())
    do { try await queueReader(values[0], Int(values[1]) ?? 5) } catch {
        FileHandle.standardError.write(Data("outage-probe: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
default: break
}
do {
    try Network.run("link", "set", "lo", "up")
    let report: Report
    switch arguments.first {
    case "monitor": report = try await monitorScenario()
    case "outages": report = try await outagesScenario(outages: Int(arguments.dropFirst().first ?? "") ?? 20, concurrent: 3)
    case "cut": report = try await cutScenario()
    case "hedge": report = try await hedgeScenario(keepAlive: arguments.dropFirst().first == "keep-alive")
    case "origin": report = try await originScenario(seconds: Int(arguments.dropFirst().first ?? "") ?? 5)
    case "fail-fast": report = try await failFastScenario()
    case "environment-proxy": report = try await environmentProxyScenario()
    case "offline-cache": report = try await offlineCacheScenario()
    case "burst": report = try await burstScenario(count: Int(arguments.dropFirst().first ?? "") ?? 1000)
    case "burst-libcurl":
        let values = Array(arguments.dropFirst())
        guard values.count == 2, let count = Int(values[0]) else { throw TestServerError("usage: burst-libcurl N CURL_BENCH") }
        report = try await libcurlBurstScenario(count: count, curlBench: values[1])
    case "wake":
        let values = arguments.dropFirst().compactMap { Int($0) }
        report = try await wakeScenario(count: values.first ?? 100_000, hosts: values.dropFirst().first ?? values.first ?? 100_000)
    case "mitmproxy-cassette": report = try await mitmproxyCassetteScenario()
    case "websocket": report = try await webSocketScenario()
    case "queue": report = try await queueScenario(count: Int(arguments.dropFirst().first ?? "") ?? 6)
    case "postgres-fleet": report = try await postgresFleetScenario(count: Int(arguments.dropFirst().first ?? "") ?? 100)
    case "chaos":
        let values = arguments.dropFirst().compactMap { Int($0) }
        report = try await chaosScenario(seconds: values.first ?? 180, workers: values.dropFirst().first ?? 64)
    default:
        FileHandle.standardError.write(Data("usage: outage-probe monitor|outages [N]|cut|fail-fast|environment-proxy|offline-cache|burst [N]|burst-libcurl N CURL_BENCH|wake [WAITERS [HOSTS]]|mitmproxy-cassette|websocket|queue [N]|chaos [SECONDS [WORKERS]]\n".utf8))
        exit(2)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    print(String(decoding: try encoder.encode(report), as: UTF8.self))
} catch {
    FileHandle.standardError.write(Data("outage-probe: \(error)\n".utf8))
    exit(1)
}
