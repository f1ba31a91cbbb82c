import BrickRequest
import Foundation
import Glibc

/// Long runs through the full brick path, for `make soak` and `make load` (Docs/Reliability.md).
///
/// - `brick-soak soak BASE_URL TOTAL OUT_TSV`: TOTAL requests to nginx, the first tenth one at a time and the
///   rest 64 at a time: 1 in 10 a 1 KiB POST, 1 in 25 a 1 MiB GET streamed and cancelled after its first
///   chunk, the rest small GETs. Every 10,000 requests it writes `requests  rss_kib  fds` to OUT_TSV. After
///   warm-up (the sequential tenth and the first tenth at 64 in flight), resident memory may grow by at most
///   2 MiB (median of the last ten samples against the first ten) and open descriptors stay within the
///   pool's connections (64) plus 24 (libcurl's wake-up pair, the netlink socket, standard streams, and
///   connections of cancelled streams still closing); otherwise it exits 1.
/// - `brick-soak load BASE_URL COUNT`: COUNT small GETs in flight at once; every one must succeed, with at
///   most the pool's connections (64) plus libcurl's wake-up pair and the netlink socket open. Prints the
///   peak resident memory over the baseline per request in flight, and the most sockets open at once, and
///   ends with one line: `LOAD in_flight=… per_request_kb=… failures=…`.
final class SoakGet: Component, GETRequestType, CustomSessionRequestType, NonAutoRetryType, DataResponseType {
    static var customSession: Session { soakSession }
    let URLString: String
    init(_ url: String) {
        URLString = url
        super.init()
    }
}

final class SoakPost: Component, POSTRequestType, CustomSessionRequestType, NonAutoRetryType, DataResponseType {
    static var customSession: Session { soakSession }
    static let payload = ParameterBuilder { TextParameter(String(repeating: "x", count: 1022), name: "b") }
    let URLString: String
    init(_ url: String) {
        URLString = url
        super.init(parameterBuilder: Self.payload)
    }
}

let soakPool = CurlTransport.Configuration()
let soakSession = Session(connectionPool: soakPool)

/// Resident memory in KiB, from `/proc/self/statm`.
func residentKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// Open descriptors, and how many of them are sockets.
func descriptors() -> (all: Int, sockets: Int) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    let sockets = names.filter { ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) ?? "").hasPrefix("socket:") }
    return (names.count, sockets.count)
}

/// One request of the mix; `true` when it ended as it should.
func request(_ number: Int, base: String) async -> Bool {
    if number % 10 == 0 { return (try? await SoakPost(base + "/post").response()) != nil }
    if number % 25 == 1 {
        do {
            for try await event in SoakGet(base + "/1m.bin").stream() { if case .body = event { break } }
            return true
        } catch { return false }
    }
    return (try? await SoakGet(base + "/small").response()) != nil
}

func soak(base: String, total: Int, output: String) async -> Int32 {
    guard FileManager.default.createFile(atPath: output, contents: Data("requests\trss_kib\tfds\n".utf8)),
        let log = FileHandle(forWritingAtPath: output)
    else { return 2 }
    log.seekToEndOfFile()
    let sequential = total / 10
    // Warm-up: the sequential part and the first tenth of the concurrent one (64 connections open up).
    let warmUp = sequential + total / 10
    var done = 0, failed = 0
    /// Resident KiB and descriptors of every sample after warm-up.
    var settled: [(rss: Int, fds: Int)] = []
    func sample() {
        let rss = residentKiB(), fds = descriptors().all
        log.write(Data("\(done)\t\(rss)\t\(fds)\n".utf8))
        if done >= warmUp { settled.append((rss, fds)) }
    }
    sample()
    while done < sequential {
        if await !request(done, base: base) { failed += 1 }
        done += 1
        if done % 10_000 == 0 { sample() }
    }
    while done < total {
        let batch = min(10_000, total - done)
        let start = done
        failed += await withTaskGroup(of: Bool.self) { group in
            var next = 0, failures = 0
            for _ in 0..<min(64, batch) {
                let number = start + next
                group.addTask { await request(number, base: base) }
                next += 1
            }
            for await ok in group {
                if !ok { failures += 1 }
                if next < batch {
                    let number = start + next
                    group.addTask { await request(number, base: base) }
                    next += 1
                }
            }
            return failures
        }
        done += batch
        sample()
    }
    // Growth is the median of the last ten samples over the median of the first ten after warm-up: malloc's
    // arenas make single samples jump by ~2 MiB either way, which says nothing about a leak.
    func median(_ values: ArraySlice<Int>) -> Int { values.sorted()[values.count / 2] }
    let rss = settled.map(\.rss)
    let growth = rss.count >= 20 ? median(rss.suffix(10)[...]) - median(rss.prefix(10)[...]) : 0
    let maxFDs = settled.map(\.fds).max() ?? 0
    let fdBound = soakPool.maxConnectionsPerHost + 24
    print("RESULT soak requests=\(done) failed=\(failed) rss_growth_kib=\(growth) rss_range_kib=\((rss.min() ?? 0))-\((rss.max() ?? 0)) max_fds=\(maxFDs) fd_bound=\(fdBound)")
    return failed == 0 && growth <= 2048 && maxFDs <= fdBound ? 0 : 1
}

func load(base: String, count: Int) async -> Int32 {
    let baseline = residentKiB()
    let peak = Peak()
    let sampler = Task.detached {
        while !Task.isCancelled {
            await peak.note(residentKiB(), descriptors().sockets)
            try? await Task.sleep(for: .milliseconds(5))  // a sampling interval, not synchronization
        }
    }
    let failed = await withTaskGroup(of: Bool.self) { group in
        for number in 0..<count { group.addTask { (try? await SoakGet(base + "/small?\(number)").response()) != nil } }
        return await group.reduce(0) { $0 + ($1 ? 0 : 1) }
    }
    sampler.cancel()
    let (rss, sockets) = await peak.values
    let perRequest = Double(max(0, rss - baseline)) * 1024 / Double(count)
    print("RESULT load baseline_kib=\(baseline) peak_kib=\(rss) bytes_per_request=\(Int(perRequest)) max_sockets=\(sockets)")
    print("LOAD in_flight=\(count) per_request_kb=\(String(format: "%.1f", perRequest / 1000)) failures=\(failed)")
    // Besides the pool's connections: libcurl's wake-up socket pair (2) and the netlink monitor's socket (1).
    return failed == 0 && sockets <= soakPool.maxConnectionsPerHost + 3 ? 0 : 1
}

actor Peak {
    private var rss = 0, sockets = 0
    func note(_ rss: Int, _ sockets: Int) {
        self.rss = max(self.rss, rss)
        self.sockets = max(self.sockets, sockets)
    }
    var values: (Int, Int) { (rss, sockets) }
}

let arguments = CommandLine.arguments
switch (arguments.count > 1 ? arguments[1] : "", arguments.count) {
case ("soak", 5): exit(await soak(base: arguments[2], total: Int(arguments[3]) ?? 1_000_000, output: arguments[4]))
case ("load", 4):
    // In a detached task while the main thread sleeps, so that valgrind (3.19 stops in libdispatch's wait on
    // the main queue) can run it: `valgrind --tool=massif` shows what a request in flight holds.
    let base = arguments[2], count = Int(arguments[3]) ?? 10_000
    Task.detached { exit(await load(base: base, count: count)) }
    while true { sleep(3600) }
default:
    FileHandle.standardError.write(Data("usage: brick-soak soak BASE_URL TOTAL OUT_TSV | load BASE_URL COUNT\n".utf8))
    exit(2)
}
