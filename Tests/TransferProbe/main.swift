import BrickRequest
import BrickSystem
import Foundation
import Glibc

/// One transfer in a process of its own, so that its memory is measured alone, with the outcome printed as
/// one JSON line.
///
/// - `transfer-probe download URL DESTINATION [DIE_AFTER_BYTES]`: `download(to:)`; with a byte count the
///   process kills itself with SIGKILL once that many bytes are on disk, leaving the partial file as a
///   crash would, for a second run to resume.
/// - `transfer-probe upload URL FILE`: a PUT of the file through `stream()`, checking its upload progress.
/// - `transfer-probe multipart URL FILE`: a multipart POST of a text field and the file, collected.
/// - `transfer-probe slow URL`: a streamed GET read by a consumer slower than the network.
/// - `transfer-probe stalled URL`: a streamed GET whose consumer sleeps a second after the head, then reads.
/// - `transfer-probe allocations full|transport URL N`: N sequential GETs through the full brick path or the
///   transport alone (AllocationTests counts the allocations).
/// - `transfer-probe threads URL`: the library's threads (by name) after building configurations and
///   sessions, and after one GET of URL through `Session.shared`.
/// - `transfer-probe inherited URL`: the process's descriptors a spawned program would inherit (not
///   close-on-exec), by kind, before and after a session made its engine and sent one GET of URL.
/// - `transfer-probe interleaved BOMB_URL SMALL_URL`: streams BOMB_URL with no decompression ratio (a body
///   whose codings take the engine a second or more to decode), and once its head came, GETs SMALL_URL on the
///   same session: whether the GET was answered before the bomb's stream ended.
/// - `transfer-probe websocket-big URL compressed|plain`: a WebSocket whose server sends a message far past
///   the default limits (WebSocketProbe.swift).
/// - `transfer-probe shutdown OK_URL HANGING_URL`: a session with one kept-alive connection and one request
///   in flight, shut down: the library's threads and the process's descriptors before, during and after.
final class Fetch: Component, GETRequestType, APISessionRequestType, AbsoluteURLType {
    let path: String
    init(_ url: String) {
        path = url
        super.init()
    }
}

final class Ping: Component, GETRequestType, APISessionRequestType, AbsoluteURLType, DataResponseType {
    let path: String
    init(_ url: String) {
        path = url
        super.init()
    }
}

final class Put: Component, PUTRequestType, APISessionRequestType, AbsoluteURLType, RawBodyType {
    let path: String
    let rawBody: RequestBody
    init(_ url: String, file: String) {
        path = url
        rawBody = .file(path: file)
        super.init()
    }
}

final class PostArchive: Component, POSTRequestType, APISessionRequestType, AbsoluteURLType, MultipartBodyType,
    StringResponseType
{
    let path: String
    init(_ url: String, file: String) {
        path = url
        super.init(parameterBuilder: ParameterBuilder {
            TextParameter("nightly", name: "label")
            FileParameter(fileURL: URL(fileURLWithPath: file), name: "archive", mimeType: "application/x-tar")
        })
    }
}

/// A field of /proc/self/status in KiB (`VmRSS`, `VmHWM`).
func memoryKiB(_ field: String) -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

/// The names of the process's threads that the library starts (`brick-…`), sorted.
func libraryThreads() -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    let names = tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
    return names.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { $0.hasPrefix("brick-") }.sorted()
}

func report(_ fields: [String: String]) -> Never {
    print("{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}")
    exit(0)
}

func fail(_ message: String) -> Never {
    print(#"{"error": "\#(message.replacingOccurrences(of: "\"", with: "'"))"}"#)
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    fail("usage: transfer-probe download URL DESTINATION [DIE_AFTER_BYTES] | upload URL FILE | multipart URL FILE | slow URL | threads URL | shutdown OK_URL HANGING_URL")
}
let baseline = memoryKiB("VmRSS")
switch arguments[1] {
case "download":
    let dieAfter = arguments.count > 4 ? Int64(arguments[4]) : nil
    do {
        let result = try await Fetch(arguments[2]).download(to: URL(fileURLWithPath: arguments[3])) { progress in
            if let dieAfter, progress.completed >= dieAfter { kill(getpid(), SIGKILL) }
        }
        report([
            "length": "\(result.length)", "resumedFrom": "\(result.resumedFrom)", "restarted": "\(result.restarted)",
            "status": "\(result.head.status)", "baselineKiB": "\(baseline)", "peakKiB": "\(memoryKiB("VmHWM"))",
        ])
    } catch {
        fail("\(error)")
    }
case "upload":
    var reports: [TransferProgress] = []
    var answer = Data()
    var status = 0
    do {
        for try await event in Put(arguments[2], file: arguments[3]).stream() {
            switch event {
            case .uploadProgress(let progress): reports.append(progress)
            case .head(let head): status = head.status
            case .body(let chunk): answer.append(chunk)
            default: continue
            }
        }
    } catch {
        fail("\(error)")
    }
    let increasing = zip(reports, reports.dropFirst()).allSatisfy { $0.completed < $1.completed }
    let totals = Set(reports.map { $0.expected.map(String.init) ?? "null" })
    report([
        "status": "\(status)", "events": "\(reports.count)", "increasing": "\(increasing)",
        "last": "\(reports.last?.completed ?? -1)", "expected": "[\(totals.sorted().joined(separator: ", "))]",
        "answer": String(decoding: answer, as: UTF8.self), "baselineKiB": "\(baseline)", "peakKiB": "\(memoryKiB("VmHWM"))",
    ])
case "multipart":
    do {
        let answer = try await PostArchive(arguments[2], file: arguments[3]).response()
        report(["answer": answer, "baselineKiB": "\(baseline)", "peakKiB": "\(memoryKiB("VmHWM"))"])
    } catch {
        fail("\(error)")
    }
case "slow":
    var received = 0
    var chunks = 0
    do {
        for try await event in Fetch(arguments[2]).stream() {
            guard case .body(let chunk) = event else { continue }
            received += chunk.count
            chunks += 1
            if chunks % 16 == 0 { try await Task.sleep(for: .milliseconds(2)) }  // the slow consumer: workload, not a wait
        }
    } catch {
        fail("\(error)")
    }
    report(["received": "\(received)", "chunks": "\(chunks)", "baselineKiB": "\(baseline)", "peakKiB": "\(memoryKiB("VmHWM"))"])
case "stalled":
    // A consumer asleep at the head (the slow consumer is the workload, not a wait), then reading all.
    var received = 0
    var outcome = "end"
    do {
        for try await event in Fetch(arguments[2]).stream() {
            if case .head = event { try await Task.sleep(for: .seconds(1)) }
            if case .body(let chunk) = event { received += chunk.count }
        }
    } catch {
        outcome = (error as? BrickError)?.transportError.map { "\($0.kind)" } ?? "\(error)"
    }
    report(["outcome": "\"\(outcome)\"", "received": "\(received)", "baselineKiB": "\(baseline)", "peakKiB": "\(memoryKiB("VmHWM"))"])
case "allocations":
    // N sequential GETs of URL through the full brick path (`full`) or the libcurl transport alone
    // (`transport`), after one to warm up; the preloaded counter counts the process's allocations.
    let count = Int(arguments[4]) ?? 0
    var failures = 0
    if arguments[2] == "transport" {
        guard let transport = CurlTransport() else { fail("no transport") }
        for _ in 0...count {
            do { _ = try await transport.makeTransfer(for: TransportRequest(url: arguments[3])).response() } catch { failures += 1 }
        }
    } else {
        for _ in 0...count where await Ping(arguments[3]).dataResponse().statusCode != 200 { failures += 1 }
    }
    report(["failures": "\(failures)"])
case "threads":
    func quoted(_ names: [String]) -> String { "[" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
    let before = libraryThreads()
    var configuration = Session.Configuration(baseURL: arguments[2])
    configuration.headers["X-Probe"] = "1"
    let own = Session(configuration: configuration)
    let request = Ping(arguments[2])
    let ready = own.configuration.baseURL != nil && request.session === Session.shared
        && Session.shared.configuration.baseURL == nil && own.runningRequestCount == 0
    let afterSetup = libraryThreads()
    let status = await request.dataResponse().response?.head.status ?? 0
    report([
        "before": quoted(before), "afterSetup": quoted(afterSetup), "afterRequest": quoted(libraryThreads()),
        "status": "\(status)", "ready": "\(ready)",
    ])
case "shutdown":
    func quoted(_ names: [String]) -> String { "[" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
    func descriptors() -> Int { ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count }
    /// Everything the session holds is made and released inside this function.
    func run() async -> [String: String] {
        var configuration = Session.Configuration()
        configuration.reachability = UnknownReachability()  // no process-wide monitor: only the session's own
        let session = Session(configuration: configuration)
        let ok = (try? await session.send(TransportRequest(url: arguments[2])))?.head.status ?? 0
        let hanging = Task { () async -> BrickError? in
            do throws(BrickError) { _ = try await session.send(TransportRequest(url: arguments[3])) } catch { return error }
            return nil
        }
        while session.runningRequestCount == 0 { await Task.yield() }
        let during = libraryThreads()
        await session.shutdown(gracePeriod: .milliseconds(200))
        let cut = await hanging.value
        var refused = "sent"
        do { _ = try await session.send(TransportRequest(url: arguments[2])) } catch { refused = "\(error)" }
        return [
            "ok": "\(ok)", "during": quoted(during), "after": quoted(libraryThreads()),
            "cut": "\"\(cut?.transportError?.kind.rawValue ?? "none")\"",
            "refusedShutDown": "\(refused == "\(BrickError.shutDown)")", "fdsAfterShutdown": "\(descriptors())",
        ]
    }
    // A first round warms up what the process keeps whatever the session does (the concurrency runtime's
    // and libcurl's global descriptors); the second is the one counted.
    _ = await run()
    let fdsBefore = descriptors()
    var fields = await run()
    fields["fdsBefore"] = "\(fdsBefore)"
    fields["fdsAfterRelease"] = "\(descriptors())"
    report(fields)
case "interleaved":
    var options = TransportOptions()
    options.maxDecompressionRatio = nil
    let session = Session()
    var events = session.stream(TransportRequest(url: arguments[2], options: options)).makeAsyncIterator()
    guard case .head? = try? await events.next() else { fail("no head from \(arguments[2])") }
    let ending = Locked<Bool?>(nil)  // the bomb's end: `true` once it ended, `false` if it failed
    let consumer = Task {
        while let event = try? await events.next() {
            if case .end = event { return ending.withLock { $0 = true } }
        }
        ending.withLock { $0 = false }
    }
    let small = (try? await session.send(TransportRequest(url: arguments[3])))?.body.count ?? -1
    // Read as soon as the GET is answered: this process runs nothing else that could delay this task.
    let bombEndedFirst = ending.withLock { $0 } != nil
    await consumer.value
    let bombEnded = ending.withLock { $0 } == true
    report(["small": "\(small)", "bombEndedFirst": "\(bombEndedFirst)", "bombEnded": "\(bombEnded)"])
case "websocket-big":
    await probeBigWebSocketMessage(arguments[2], compressed: arguments.count > 3 && arguments[3] == "compressed", baseline: baseline)
case "inherited":
    /// The descriptors without close-on-exec, as `/proc/self/fd` names them (`socket:[…]`, `pipe:[…]`, a path).
    func inherited() -> [String] {
        let fds = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
        return fds.filter { fcntl($0, F_GETFD) >= 0 && fcntl($0, F_GETFD) & FD_CLOEXEC == 0 }
            .compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
    }
    func sockets(_ names: [String]) -> Int { names.filter { $0.hasPrefix("socket:") }.count }
    let before = inherited()
    var configuration = Session.Configuration()
    configuration.reachability = UnknownReachability()  // the session's engine alone
    let session = Session(configuration: configuration)
    let status = (try? await session.send(TransportRequest(url: arguments[2])))?.head.status ?? 0
    let after = inherited()
    report(["status": "\(status)", "socketsBefore": "\(sockets(before))", "socketsAfter": "\(sockets(after))"])
default:
    fail("unknown mode \(arguments[1])")
}
