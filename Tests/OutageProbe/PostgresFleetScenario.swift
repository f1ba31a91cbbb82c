import BrickSystem
import Foundation
import Glibc
import TestServers

/// A fleet on PostgreSQL through an outage: the database on its Unix socket, three `queue-fleet` processes
/// delivering two ordered queues to the fault server's ledger on the loopback, which goes down before
/// anything is queued. Nothing may arrive while it is down; once it is back, every request must arrive
/// exactly once, each queue in order.
func postgresFleetScenario(count: Int) async throws -> Report {
    var report = Report()
    let database = try PostgresServer()
    defer {
        database.stop()
        Paths.removeTree(database.directory)
    }
    let server = try FaultServer()
    defer { server.stop() }
    guard let fleet = Paths.builtProduct("queue-fleet") else { throw TestServerError("queue-fleet was not built beside the probe") }
    try Network.goOffline()
    let told = Locked<(ready: Int, ended: Int, outcomes: [String])>((0, 0, []))
    let (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    var children: [PipedChild] = []
    defer { children.forEach { kill($0.process.pid, SIGKILL) } }
    for index in 0..<3 {
        let enqueue = index == 0 ? ["--enqueue", String(count), server.baseURL + "/ledger?key=fleet", "p0"] : []
        let child = try PipedChild(
            [fleet, "outage", "a,b", "--lease-ms", "2000"] + enqueue + ["--deliver"], environment: ["BRICK_PG": database.connectionString])
        children.append(child)
        Task {
            for await line in child.errorLines {
                told.withLock { state in
                    if line == "ready" { state.ready += 1 }
                    if line.hasPrefix("outcome ") { state.outcomes.append(String(line.split(separator: " ").last ?? "")) }
                }
                changed.yield()
            }
            told.withLock { $0.ended += 1 }  // a process that ends early ends the scenario's waits
            changed.yield()
        }
    }
    for await _ in changes where told.withLock({ $0.ready == 3 || $0.ended > 0 }) { break }
    report.add("arrivals while offline", Double(server.count("fleet")))
    _ = try Network.goOnline()
    for await _ in changes where told.withLock({ $0.outcomes.count >= 2 * count || $0.ended > 0 }) { break }
    let outcomes = told.withLock { $0.outcomes }
    report.add("outcomes", Double(outcomes.count))
    report.add("delivered", Double(outcomes.filter { $0 == "delivered" }.count))
    let ledger = server.ledger("fleet")
    report.add("arrivals", Double(ledger.count))
    report.facts["each once"] = "\(Set(ledger.map { $0.idempotencyKey ?? "" }).count == ledger.count)"
    for queue in ["a", "b"] {
        report.facts["queue \(queue) in order"] = "\(ledger.map(\.body).filter { $0.hasPrefix(queue + "/") } == (0..<count).map { "\(queue)/p0/\($0)" })"
    }
    return report
}
