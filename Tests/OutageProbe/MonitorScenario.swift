import BrickRequest
import TestServers

/// The netlink monitor alone: statuses through an outage, for a literal, a name and an unresolvable name,
/// and for a route whose interface loses its carrier.
func monitorScenario() async throws -> Report {
    var report = Report()
    let monitor = try NetlinkReachability()
    defer { monitor.stop() }
    func record(_ step: String, _ host: String) async {
        report.facts["\(step) \(host)"] = "\(await monitor.status(of: host))"
    }
    for host in ["127.0.0.1", "localhost", "name.invalid"] { await record("online", host) }

    let changes = monitor.changes()
    var iterator = changes.makeAsyncIterator()
    try Network.goOffline()
    report.facts["change after going offline"] = await iterator.next() != nil ? "yes" : "no"
    // Each host's status follows the routes of its own addresses, which the kernel changes one event at a
    // time: each is waited for (bounded), then read.
    for host in ["127.0.0.1", "localhost", "name.invalid"] {
        _ = await until(host, is: .unreachable, monitor)
        await record("offline", host)
    }

    _ = try Network.goOnline()
    report.facts["change after going online"] = await iterator.next() != nil ? "yes" : "no"
    for host in ["127.0.0.1", "localhost"] {
        _ = await until(host, is: .reachable, monitor)
        await record("back online", host)
    }

    // A veth pair: 10.9.0.2 is routed through v0, whose carrier depends on its peer v1 being up.
    try Network.run("link", "add", "v0", "type", "veth", "peer", "name", "v1")
    try Network.run("addr", "add", "10.9.0.1/24", "dev", "v0")
    try Network.run("link", "set", "v0", "up")
    try Network.run("link", "set", "v1", "up")
    _ = await until("10.9.0.2", is: .reachable, monitor)
    await record("carrier", "10.9.0.2")
    try Network.run("link", "set", "v1", "down")
    _ = await until("10.9.0.2", is: .unreachable, monitor)
    await record("no carrier", "10.9.0.2")
    try Network.run("link", "set", "v1", "up")
    _ = await until("10.9.0.2", is: .reachable, monitor)
    await record("carrier again", "10.9.0.2")
    return report
}
