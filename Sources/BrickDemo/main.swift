import BrickQueue
import BrickRequest
import BrickSystem
import BrickTransport
import Dispatch
import Foundation
import Glibc

/// Prints one outcome: status, value or error, and the timings.
func report<Value>(_ title: String, _ outcome: DataResponse<Value>) {
    let status = outcome.statusCode.map { "HTTP \($0)" } ?? "no response"
    print("\(title)\n  \(status)")
    switch outcome.result {
    case .success(let value): print("  value: \(value)")
    case .failure(let error): print("  error: \(error)")
    }
    if outcome.attempts.count > 1 { print("  attempts: \(outcome.timeline)") }
    if let metrics = outcome.metrics { print("  timing: \(metrics.waterfall)") }
}

guard let server = demoServer else {
    print("brick-demo: could not start the embedded server on a loopback port")
    exit(1)
}
print("BrickRequest demo — embedded server at \(server.baseURL), \(CurlTransport.libcurlVersion)\n")

// The callback style: response { } then resume(); the handler runs on the queue we name.
await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    GetUser(userID: 100).response(queue: .global()) { outcome in
        report("GetUser(userID: 100) — callback style", outcome)
        done.resume()
    }.resume()
}

// async/await.
report("GetUser(userID: 7) — async/await", await GetUser(userID: 7).dataResponse())
report("GetUserProfile(userID: 42) — Decodable", await GetUserProfile(userID: 42).dataResponse())
report("CreateUser — POST form body", await CreateUser(name: "Ada Lovelace", age: nil).dataResponse())
report("GetStatus(code: 503) — fails validation, the response is kept", await GetStatus(code: 503).dataResponse())
report("GetFlaky(busyTimes: 2) — SoftAutoRetryType retries the 503s", await GetFlaky(busyTimes: 2).dataResponse())
report("GetNowhere — nothing listens there", await GetNowhere().dataResponse())

// A response cache: the second call is answered without sending anything.
for round in 1...2 {
    let outcome = await GetCatalog().dataResponse()
    print("\(round == 1 ? "\n" : "")GetCatalog() round \(round) — cache: \(outcome.cacheStatus), served: \(outcome.value?["served"]?.description ?? "?")")
}

// A download to disk with progress, moved into place when complete.
let destination = URL(fileURLWithPath: "/tmp/brick-demo-\(getpid()).bin")
print("\nGetFile(size: 8 MiB).download(to:) — a SoftAutoRetryType GET streamed to disk")
do {
    let quarter = Locked(0)
    let file = try await GetFile(size: 8 << 20).download(to: destination) { progress in
        let step = Int((progress.fractionCompleted ?? 0) * 4)
        let passed = quarter.withLock { reached in
            defer { reached = max(reached, step) }
            return step > reached
        }
        if passed { print("  downloaded \(progress)") }
    }
    print("  → \(file.length) bytes at \(file.fileURL.path), status \(file.head.status)")
} catch {
    print("download failed: \(error)")
}
unlink(destination.path)

// A durable queue: requests are on disk before anything is sent, and whoever opens the file next delivers them.
let queuePath = "/tmp/brick-demo-\(getpid()).sqlite"
print("\nDeliveryQueue — three readings queued by one queue, delivered by the next one on the same file")
do {
    do {
        let first = try DeliveryQueue(path: queuePath, session: .shared)
        for reading in 1...3 { try ReportReading(reading, queue: first).enqueue() }
        print("  queued \(try first.pending().map { "#\($0.id) \($0.label)" }) in \(queuePath)")
        print("  this queue closes without sending, as a process that ends would")
    }
    let next = try DeliveryQueue(path: queuePath, session: .shared)
    print("  the next queue on the file finds \(try next.pending().count) waiting, and delivers them in order:")
    let outcomes = next.outcomes()
    next.start()
    var ended = 0
    for await outcome in outcomes {
        if case .delivered(let response) = outcome.result {
            print("  delivered #\(outcome.id) \(outcome.label) → HTTP \(response.head.status) \(String(decoding: response.body, as: UTF8.self))")
        } else {
            print("  #\(outcome.id): \(outcome.result)")
        }
        ended += 1
        if ended == 3 { break }
    }
    next.stop()
} catch {
    print("  queue failed: \(error)")
}
unlink(queuePath)
unlink(queuePath + ".lock")

// One-line GETs through a session.
if let text = try? await Session.shared.string(from: demoURL("/status/200")) {
    print("\nSession.shared.string(from: /status/200) → \(text.trimmingCharacters(in: .whitespacesAndNewlines))")
}

do {
    let user = try await GetUser(userID: 1).response()
    print("\ntry await GetUser(userID: 1).response() → name = \(user["name"]?.stringValue ?? "?")")
} catch {
    print("\nunexpected failure: \(error)")
}
server.stop()
