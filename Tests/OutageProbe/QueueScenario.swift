import BrickQueue
import BrickRequest
import Foundation
import Glibc
import TestServers

/// Requests that outlive their process: a first process queues them while the network is down and is
/// killed (SIGKILL) with them still waiting; the network comes back; a second process opens the same queue
/// and delivers them. The server's ledger must hold each exactly once, in order, each POST with its key.
func queueScenario(count: Int) async throws -> Report {
    var report = Report()
    let server = try FaultServer()
    defer { server.stop() }
    let directory = try Paths.scratchDirectory("queue-probe")
    defer { Paths.removeTree(directory) }
    let database = directory + "/queue.sqlite"
    let me = try selfPath()

    try Network.goOffline()
    let writer = try PipedChild([me, "queue-writer", database, server.baseURL + "/ledger?key=queue", String(count)])
    var keys: [String] = []
    for await line in writer.errorLines {
        if line.hasPrefix("key ") { keys.append(String(line.dropFirst(4))) }
        if line == "queued" { break }
    }
    kill(writer.process.pid, SIGKILL)
    let killed = await writer.process.termination()
    report.facts["writer ended"] = killed == .signalled(SIGKILL) ? "killed" : "\(killed)"
    report.add("arrivals while offline", Double(server.count("queue")))

    _ = try Network.goOnline()
    let reader = try await PipedChild.run([me, "queue-reader", database, String(count)])
    report.facts["reader status"] = "\(reader.status)"
    report.facts["reader outcomes"] = reader.text.trimmingCharacters(in: .whitespacesAndNewlines)
    let ledger = server.ledger("queue")
    report.facts["ledger bodies"] = ledger.map(\.body).joined(separator: ",")
    report.facts["ledger methods"] = ledger.map(\.method).joined(separator: ",")
    report.facts["keys match"] = "\(ledger.filter { $0.method == "POST" }.map { $0.idempotencyKey ?? "" } == keys)"
    report.add("arrivals", Double(server.count("queue")))
    // How long each delivery took after the one before it (its commits and its round trip), measured.
    let arrivals = server.arrivals("queue")
    for (earlier, later) in zip(arrivals, arrivals.dropFirst()) { report.add("ms between arrivals", milliseconds(from: earlier, to: later)) }
    return report
}

/// `outage-probe queue-writer DATABASE URL COUNT`: queues COUNT requests (POSTs, every third a PUT) with the
/// bodies 0, 1, 2 …, starts delivering (the network is down: they wait), tells the keys on standard error,
/// then `queued`, and waits to be killed.
func queueWriter(_ database: String, _ url: String, _ count: Int) async throws -> Never {
    let queue = try DeliveryQueue(path: database, session: Session())
    for index in 0..<count {
        let method: HTTPMethod = index % 3 == 2 ? .put : .post
        let queued = try queue.enqueue(TransportRequest(method: method, url: url, body: .data(Data("\(index)".utf8))))
        if let key = queued.idempotencyKey { FileHandle.standardError.write(Data("key \(key)\n".utf8)) }
    }
    queue.start()
    FileHandle.standardError.write(Data("queued\n".utf8))
    while true { try await Task.sleep(for: .seconds(3600)) }  // until SIGKILL
}

/// `outage-probe queue-reader DATABASE COUNT`: opens the queue, delivers, and prints the COUNT outcomes in
/// the order they came (at most 30 s: a safety bound).
func queueReader(_ database: String, _ count: Int) async throws {
    let queue = try DeliveryQueue(path: database, session: Session())
    let outcomes = queue.outcomes()
    queue.start()
    let results = await bounded(seconds: 30) {
        var results: [String] = []
        for await outcome in outcomes {
            switch outcome.result {
            case .delivered(let response): results.append("\(outcome.id):\(response.head.status)")
            case .failed(let error): results.append("\(outcome.id):failed \(describe(error))")
            case .mayHaveArrived: results.append("\(outcome.id):mayHaveArrived")
            case .cancelled: results.append("\(outcome.id):cancelled")
            case .deadLettered(let error): results.append("\(outcome.id):deadLettered \(describe(error))")
            }
            if results.count == count { break }
        }
        return results
    }
    print(results?.joined(separator: " ") ?? "timed out")
}

/// This executable's path, for starting it again.
func selfPath() throws -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { throw TestServerError("cannot read /proc/self/exe") }
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
