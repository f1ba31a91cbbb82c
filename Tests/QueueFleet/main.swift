// One process of a delivery queue's fleet on PostgreSQL, for the fleet tests and `make queue-bench`.
//
//     queue-fleet SCHEMA QUEUES [--unordered] [--lease-ms N] [--method M] [--enqueue N URL TAG] [--deliver] [--sqlite PATH] [--break-ms N] [--no-retry-budget]
//
// The connection string comes from BRICK_PG (never the command line, which `ps` shows). QUEUES is a
// comma-separated list of queue names. `--enqueue` queues N POSTs (or `--method`'s) to URL in each queue, with the bodies
// `QUEUE/TAG/i`, telling each on standard error as `queued QUEUE ID BODY`. `--deliver` starts delivering
// (each request carries `X-Deliverer: PID`) and tells each outcome as `outcome QUEUE ID KIND`, until
// SIGTERM or SIGKILL. `ready` follows the enqueueing, and the start. `--sqlite PATH` uses the SQLite store
// (one process) instead, for the benchmark's comparison. `--break-ms N`: the retry rules' backoff (50 ms
// unless given), first and longest alike, and no deadline (so that the rules wait the whole backoff). `--no-retry-budget`: the session's origins keep no retry budget
// (so that the rules alone decide a retry).
import BrickQueue
import BrickQueuePostgres
import BrickRequest
import Foundation
import Glibc

/// One line on standard error, written at once (a pipe's reader sees it as it happens).
func say(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: queue-fleet SCHEMA QUEUES [--unordered] [--lease-ms N] [--method M] [--enqueue N URL TAG] [--deliver] [--sqlite PATH] [--break-ms N] [--no-retry-budget]\n".utf8))
    exit(2)
}
let schema = arguments.removeFirst()
let names = arguments.removeFirst().split(separator: ",").map(String.init)
var ordered = true, lease = Duration.seconds(30), deliver = false
var enqueue: (count: Int, url: String, tag: String)?
var sqlite: String?
var method = HTTPMethod.post
var breakTime = Duration.milliseconds(50), longestBreak: Duration?
var retryBudget = true
while !arguments.isEmpty {
    switch arguments.removeFirst() {
    case "--unordered": ordered = false
    case "--lease-ms": lease = .milliseconds(Int(arguments.removeFirst()) ?? 30_000)
    case "--enqueue": enqueue = (Int(arguments.removeFirst()) ?? 0, arguments.removeFirst(), arguments.removeFirst())
    case "--deliver": deliver = true
    case "--method": method = HTTPMethod(arguments.removeFirst())
    case "--sqlite": sqlite = arguments.removeFirst()
    case "--no-retry-budget": retryBudget = false
    case "--break-ms":
        breakTime = .milliseconds(Int(arguments.removeFirst()) ?? 50)
        longestBreak = breakTime
    case let other:
        FileHandle.standardError.write(Data("queue-fleet: unknown option \(other)\n".utf8))
        exit(2)
    }
}

var configuration = Session.Configuration()
configuration.headers["X-Deliverer"] = String(getpid())
if !retryBudget { configuration.originProtection.retryBudget = nil }
let session = Session(configuration: configuration)
var rules = DeliveryQueue.defaultRetry
rules.breakTime = breakTime
if let longestBreak {
    rules.maxBreakTime = longestBreak
    rules.deadline = nil
}
let limits = DeliveryQueue.Limits(maxRequests: 1_000_000, maxBytes: 1 << 30)
do {
    let queues = try names.map { name in
        if let sqlite { return try DeliveryQueue(path: sqlite, name: name, session: session, retry: rules, limits: limits) }
        let database = try PostgresDatabase(ProcessInfo.processInfo.environment["BRICK_PG"] ?? "")
        return try DeliveryQueue(postgres: database, schema: schema, name: name, ordered: ordered, lease: lease, session: session, retry: rules, limits: limits)
    }
    if let enqueue {
        for index in 0..<enqueue.count {
            for (name, queue) in zip(names, queues) {
                let body = "\(name)/\(enqueue.tag)/\(index)"
                let queued = try queue.enqueue(TransportRequest(method: method, url: enqueue.url, body: .data(Data(body.utf8))))
                say("queued \(name) \(queued.id) \(body)")
            }
        }
    }
    if deliver {
        for (name, queue) in zip(names, queues) {
            let outcomes = queue.outcomes()
            Task {
                for await outcome in outcomes {
                    let kind = switch outcome.result {
                    case .delivered: "delivered"
                    case .failed: "failed"
                    case .mayHaveArrived: "mayHaveArrived"
                    case .cancelled: "cancelled"
                    case .deadLettered: "deadLettered"
                    }
                    say("outcome \(name) \(outcome.id) \(kind)")
                }
            }
            queue.start()
        }
    }
    say("ready")
    if deliver {
        while true { try await Task.sleep(for: .seconds(3600)) }  // until SIGTERM or SIGKILL
    }
} catch {
    FileHandle.standardError.write(Data("queue-fleet: \(error)\n".utf8))
    exit(1)
}
