import BenchSupport
import BrickRequest
import FoundationEssentials
import Glibc

// brick-bench SCENARIO URL N [CONCURRENCY]: the command line every client of a side-by-side benchmark run
// takes; each request goes through the full brick path: a Component with stock bricks → Session → the libcurl engine.
// Prints: RESULT client=brick scenario=… n=… bytes=… wall_s=… cpu_s=… maxrss_kb=… errors=…
//
// S5 (this project's own): N times, a ~10 MB JSON array decoded into Codable structs through a Decodable
// response brick; `S5direct` is its reference: the same bytes fetched as Data and handed to JSONDecoder
// directly (client=jsondecoder). `bytes` counts the decoded elements' source bytes. `S5json`: the same array
// through the untyped JSON brick (`JSONResponseType`, the library's one-pass parser); `S5jsoncodable`, its
// reference: the same bytes decoded into `JSON` through JSONDecoder and `JSON`'s Codable conformance.
//
// The referee's other scenarios: S3m (N sequential 1 MiB downloads, streamed like S3), and over TLS H1 (S1 on
// HTTP/1.1), H2 (S2 over one HTTP/2 connection) and H3 (S1 with a new connection, and a full handshake, for
// every request); BENCH_CA_FILE names the CA bundle to trust (see Requests.swift).
//
// S1transport, S1handoff and S1inline are S1 with parts of the path left out (see Layers.swift).
//
// With BRICK_BENCH_SHAPE=readme in the environment, S1, S4 and H1 run the README's request shape (GETRequestType,
// APISessionRequestType, SoftAutoRetryType, DataResponseType) instead, and the RESULT line says shape=readme.
// With BRICK_BENCH_SHAPE=features, S1 runs on a session with a response cache, a cookie jar and an observer
// (and the default origin protection), and the RESULT line says shape=features.

let arguments = CommandLine.arguments
guard arguments.count >= 4, let count = Int(arguments[3]), count > 0,
    ["S1", "S2", "S3", "S3m", "S4", "S5", "S5direct", "S5json", "S5jsoncodable", "H1", "H2", "H3",
     "S1transport", "S1handoff", "S1inline"].contains(arguments[1])
else {
    warn("usage: brick-bench S1|S2|S3|S3m|S4|S5|S5direct|S5json|S5jsoncodable|H1|H2|H3|S1transport|S1handoff|S1inline URL N [CONCURRENCY]")
    exit(2)
}
let direct = arguments[1] == "S5direct" || arguments[1] == "S5jsoncodable"
let untyped = arguments[1] == "S5json" || arguments[1] == "S5jsoncodable"
let layer = ["S1transport": "brick-transport", "S1handoff": "brick-handoff", "S1inline": "brick-inline"][arguments[1]]
let scenario = arguments[1].hasPrefix("S5") ? (untyped ? "S5json" : "S5") : (layer == nil ? arguments[1] : "S1")
let url = arguments[2]
let concurrency = arguments.count > 4 ? Int(arguments[4]) ?? 64 : 64
let readme = benchShape == "readme" && ["S1", "S4", "H1"].contains(arguments[1])
let features = benchShape == "features" && arguments[1] == "S1"

/// Bytes received and failed requests of one phase.
struct Tally: Sendable {
    var bytes = 0
    var errors = 0
    static func + (lhs: Tally, rhs: Tally) -> Tally { Tally(bytes: lhs.bytes + rhs.bytes, errors: lhs.errors + rhs.errors) }
}

@Sendable func collect(_ outcome: DataResponse<Data>) -> Tally {
    guard outcome.statusCode == 200, let body = outcome.value else {
        if let error = outcome.error { warn("brick-bench: \(error)") }
        return Tally(errors: 1)
    }
    return Tally(bytes: body.count)
}

@Sendable func sequential(_ n: Int, post: Bool, url: String) async -> Tally {
    // The README's shape takes the API session, `Session.current ?? .shared`: the benchmark's, bound once for
    // the run, as an app leaves it unbound and a test binds its stub once (every call reads it).
    if readme, Session.current == nil { return await Session.$current.withValue(benchSession) { await sequential(n, post: post, url: url) } }
    var tally = Tally()
    for _ in 0..<n {
        if readme {
            tally = tally + collect(post ? await ReadmePost(url: url).dataResponse() : await ReadmeGet(url: url).dataResponse())
        } else {
            tally = tally + collect(post ? await BenchPost(url: url).dataResponse() : await BenchGet(url: url).dataResponse())
        }
    }
    return tally
}

@Sendable func concurrent(_ n: Int, width: Int) async -> Tally {
    await withTaskGroup(of: Tally.self) { group in
        for worker in 0..<width {
            let share = n / width + (worker < n % width ? 1 : 0)
            group.addTask { await sequential(share, post: false, url: url) }
        }
        return await group.reduce(Tally(), +)
    }
}

@Sendable func streamed(_ n: Int) async -> Tally {
    var tally = Tally()
    for _ in 0..<n {
        do {
            for try await event in BenchGet(url: url).stream() {
                switch event {
                case .head(let head): if head.status != 200 { tally.errors += 1 }
                case .body(let chunk): tally.bytes += chunk.count
                case .uploadProgress, .downloadProgress, .end: break
                }
            }
        } catch {
            warn("brick-bench: \(error)")
            tally.errors += 1
        }
    }
    return tally
}

/// S5: decodes the array `n` times, through the Decodable brick or (`direct`) with JSONDecoder on the bytes.
@Sendable func decoded(_ n: Int, direct: Bool) async -> Tally {
    var tally = Tally()
    for _ in 0..<n {
        if untyped && !direct {
            let outcome = await BenchJSON(url: url).dataResponse()
            guard let json = outcome.value, let response = outcome.response else {
                if let error = outcome.error { warn("brick-bench: \(error)") }
                tally.errors += 1
                continue
            }
            tally.bytes += json.arrayValue?.isEmpty == false ? response.body.count : 0
        } else if direct {
            let fetched = await BenchGet(url: url).dataResponse()
            guard let bytes = fetched.value else { tally.errors += 1; continue }
            do {
                let count = untyped
                    ? try JSONDecoder().decode(JSON.self, from: bytes).arrayValue?.count ?? 0
                    : try JSONDecoder().decode([Account].self, from: bytes).count
                tally.bytes += count == 0 ? 0 : bytes.count
            } catch {
                warn("brick-bench: \(error)")
                tally.errors += 1
            }
        } else {
            let outcome = await BenchAccounts(url: url).dataResponse()
            guard let accounts = outcome.value, let response = outcome.response else {
                if let error = outcome.error { warn("brick-bench: \(error)") }
                tally.errors += 1
                continue
            }
            tally.bytes += accounts.isEmpty ? 0 : response.body.count
        }
    }
    return tally
}

let layerTransport = arguments[1] == "S1transport" ? CurlTransport() : nil
@Sendable func timed(_ n: Int) async -> Tally {
    if let layerTransport { return await transportOnly(n, url: url, transport: layerTransport) }
    if layer != nil { return await layered(n, url: url) }
    switch scenario {
    case "S2", "H2": return await concurrent(n, width: concurrency)
    case "S3", "S3m": return await streamed(n)
    case "S5", "S5json": return await decoded(n, direct: direct)
    default: return await sequential(n, post: scenario == "S4", url: url)
    }
}

/// Warms up, as the other clients do, then runs the timed phase and prints the RESULT line.
@Sendable func main() async -> Never {
    // Warm-up, as the other clients do it.
    switch scenario {
    case _ where layer != nil: _ = await timed(100)
    case "S2": _ = await concurrent(4 * concurrency, width: concurrency)
    case "H2":
        _ = await sequential(1, post: false, url: url)  // the one connection, before 64 ask for it at once
        _ = await concurrent(4 * concurrency, width: concurrency)
    case "S5", "S5json": _ = await decoded(1, direct: direct)
    case "S3", "S3m":
        let small = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false).prefix(3).joined(separator: "/") + "/small"
        _ = await sequential(1, post: false, url: small)
    default: _ = await sequential(100, post: scenario == "S4", url: url)
    }

    let (cpuStart, _) = cpuSeconds()
    let start = ContinuousClock.now
    let tally = await timed(count)
    let wall = ContinuousClock.now - start
    let (cpuEnd, maxRSS) = cpuSeconds()
    printResult(client: direct ? "jsondecoder" : layer ?? "brick", scenario: scenario, count: count, bytes: Int64(tally.bytes), wall: wall,
                cpu: cpuEnd - cpuStart, maxRSS: maxRSS, errors: tally.errors, extra: readme ? " shape=readme" : features ? " shape=features" : "")
    exit(tally.errors == 0 ? 0 : 1)
}

if mainThreadSleeps { runDetachedWhileMainSleeps { await main() } }
await main()
