import BenchSupport
import CCurl
import CCurlShim
import Glibc
import Synchronization

// floor-bench S1|S2|S4 URL N [CONCURRENCY]: the floor of BrickRequest's architecture, with brick-bench's
// command line and RESULT line (client=floor).
//
// It has the shape BrickRequest has and nothing else: the caller is a Swift task that awaits a continuation;
// one engine thread drives libcurl's multi interface, sleeps in curl_multi_poll, is woken through a pipe
// when a request is posted, and resumes the caller's continuation when the transfer ends. So each request
// crosses threads twice, as in BrickRequest, but the caller builds no request value, the engine sets no
// options beyond the URL (each handle is set up once and reused without a reset), parses no head and
// collects no body (it is counted and dropped). BENCH_BEST=1 makes it the honest floor (see `best`). What separates brick-bench from this client is the cost of
// BrickRequest's own code; what separates this client from curl-bench is the cost of the architecture.

/// What the engine hands back for one request.
struct Outcome: Sendable {
    var code: Int32
    var status: Int
    var bytes: Int64
}

/// One request to start: the easy handle (as a bit pattern, so that the job is `Sendable`) and the caller
/// waiting for it.
struct Job: Sendable {
    let handle: Int
    let waiter: UnsafeContinuation<Outcome, Never>
}

/// The door into the engine thread: a lock-protected queue and a pipe written only when the engine sleeps.
final class Mailbox: Sendable {
    private struct State: ~Copyable {
        var jobs: [Job] = []
        var sleeping = false
    }

    private let state = Mutex(State())
    let wakeupFD: Int32
    private let signalFD: Int32

    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFL, O_NONBLOCK) }
        wakeupFD = ends[0]
        signalFD = ends[1]
    }

    func post(_ job: Job) {
        let wake = state.withLock { state -> Bool in
            state.jobs.append(job)
            defer { state.sleeping = false }
            return state.sleeping
        }
        if wake {
            var byte: UInt8 = 1
            _ = write(signalFD, &byte, 1)
        }
    }

    func drain(into batch: inout [Job]) {
        state.withLock { state in
            state.sleeping = false
            swap(&state.jobs, &batch)
        }
    }

    func prepareToSleep() -> Bool {
        state.withLock { state in
            guard state.jobs.isEmpty else { return false }
            state.sleeping = true
            return true
        }
    }

    func acknowledgeWakeup() {
        var bytes: (UInt64, UInt64) = (0, 0)
        while withUnsafeMutableBytes(of: &bytes, { read(wakeupFD, $0.baseAddress, $0.count) }) == 16 {}
    }
}

/// The engine thread's loop; everything in it stays on that thread.
func runEngine(_ mailbox: Mailbox) {
    guard let multi = curl_multi_init() else { fatal("libcurl could not make a multi handle") }
    var waiting: [Int: UnsafeContinuation<Outcome, Never>] = [:]
    var batch: [Job] = []
    var wakeup = curl_waitfd(fd: mailbox.wakeupFD, events: Int16(CURL_WAIT_POLLIN), revents: 0)
    while true {
        mailbox.drain(into: &batch)
        for job in batch {
            guard let handle = UnsafeMutableRawPointer(bitPattern: job.handle) else { continue }
            waiting[job.handle] = job.waiter
            _ = curl_multi_add_handle(multi, handle)
        }
        batch.removeAll(keepingCapacity: true)
        var running: Int32 = 0
        _ = curl_multi_perform(multi, &running)
        var easy: UnsafeMutableRawPointer?
        var code = CURLE_OK
        while brick_multi_next_done(multi, &easy, &code) == 1, let finished = easy {
            _ = curl_multi_remove_handle(multi, finished)
            var status = 0
            var bytes: curl_off_t = 0
            _ = brick_easy_getinfo_long(finished, CURLINFO_RESPONSE_CODE, &status)
            _ = brick_easy_getinfo_off(finished, CURLINFO_SIZE_DOWNLOAD_T, &bytes)
            let outcome = Outcome(code: Int32(code.rawValue), status: status, bytes: Int64(bytes))
            waiting.removeValue(forKey: Int(bitPattern: finished))?.resume(returning: outcome)
        }
        if mailbox.prepareToSleep() {
            var ready: Int32 = 0
            wakeup.revents = 0
            _ = curl_multi_poll(multi, &wakeup, 1, 1000, &ready)
            if wakeup.revents != 0 { mailbox.acknowledgeWakeup() }
        }
    }
}

/// Starts the engine thread; it runs until the process exits.
func startEngine(_ mailbox: Mailbox) {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(mailbox).toOpaque()
    let started = pthread_create(&thread, nil, { context in
        guard let context else { return nil }
        runEngine(Unmanaged<Mailbox>.fromOpaque(context).takeRetainedValue())
        return nil
    }, context)
    guard started == 0 else { fatal("could not start the engine thread (error \(started))") }
}

enum Callbacks {
    /// Drops the body; libcurl counts it (`CURLINFO_SIZE_DOWNLOAD_T`).
    static let discard: brick_data_callback = { _, size, count, _ in size * count }
}

/// `FLOOR_FEATURES=1`: the handle also does the libcurl work BrickRequest's default request asks of it (two
/// header fields in a custom list, every head line handed to a callback), so that `make instructions` can
/// show what those features cost libcurl itself, apart from the Swift around it.
let withFeatures = getenv("FLOOR_FEATURES").map { String(cString: $0) == "1" } ?? false
/// `BENCH_BEST=1`: libcurl as BrickRequest's engine uses it at its cheapest: the URL parsed once and kept
/// with the handle (`CURLOPT_CURLU`: a transfer copies it instead of parsing the text), and no `Accept`.
let best = getenv("BENCH_BEST").map { String(cString: $0) == "1" } ?? false
/// The list's address (made once, never freed: it lives as long as the process); 0 for none.
let fields: Int = {
    var list: UnsafeMutablePointer<curl_slist>?
    if withFeatures {
        list = curl_slist_append(list, "User-Agent: BrickRequest/0.7.0")
        list = curl_slist_append(list, "Accept-Encoding: deflate, gzip, br, zstd")
    }
    if best { list = curl_slist_append(list, "Accept:") }
    return Int(bitPattern: list)
}()

/// A handle for `url`, set up once: the URL, no signals, the body dropped, and a 1 KiB form body for S4.
func makeHandle(url: String, post: Bool) -> Int {
    guard let handle = curl_easy_init() else { fatal("libcurl could not make an easy handle") }
    if best {  // the parsed URL lives as long as the process, as the handle does
        guard let parsed = curl_url(), curl_url_set(parsed, CURLUPART_URL, url, 0) == CURLUE_OK else { fatal("libcurl refused the URL") }
        _ = brick_easy_setopt_pointer(handle, CURLOPT_CURLU, UnsafeMutableRawPointer(parsed))
    } else {
        _ = brick_easy_setopt_string(handle, CURLOPT_URL, url)
    }
    _ = brick_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
    _ = brick_easy_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, Callbacks.discard)
    if fields != 0 { _ = brick_easy_setopt_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(bitPattern: fields)) }
    if withFeatures { _ = brick_easy_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, Callbacks.discard) }
    if post {
        let form = "b=" + String(repeating: "x", count: 1022)
        _ = brick_easy_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(form.utf8.count))
        _ = brick_easy_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, form)
    }
    return Int(bitPattern: handle)
}

/// Bytes received and failed requests of one phase.
struct Tally: Sendable {
    var bytes: Int64 = 0
    var errors = 0
    static func + (lhs: Tally, rhs: Tally) -> Tally { Tally(bytes: lhs.bytes + rhs.bytes, errors: lhs.errors + rhs.errors) }
}

/// `n` requests one after the other on `handle`, each awaited as BrickRequest's caller awaits its transfer.
func sequential(_ n: Int, handle: Int, mailbox: Mailbox) async -> Tally {
    var tally = Tally()
    for _ in 0..<n {
        let outcome = await withUnsafeContinuation { mailbox.post(Job(handle: handle, waiter: $0)) }
        if outcome.code != 0 || outcome.status != 200 {
            if outcome.code != 0 { warn("floor-bench: \(String(cString: curl_easy_strerror(CURLcode(UInt32(outcome.code)))))") }
            tally.errors += 1
        } else {
            tally.bytes += outcome.bytes
        }
    }
    return tally
}

/// `n` requests spread over `handles.count` tasks that each run their share one after the other.
func concurrent(_ n: Int, handles: [Int], mailbox: Mailbox) async -> Tally {
    await withTaskGroup(of: Tally.self) { group in
        for (index, handle) in handles.enumerated() {
            let share = n / handles.count + (index < n % handles.count ? 1 : 0)
            group.addTask { await sequential(share, handle: handle, mailbox: mailbox) }
        }
        return await group.reduce(Tally(), +)
    }
}

func fatal(_ message: String) -> Never {
    warn("floor-bench: " + message)
    exit(1)
}

func main() async -> Never {
    let arguments = CommandLine.arguments
    guard arguments.count >= 4, ["S1", "S2", "S4"].contains(arguments[1]), let count = Int(arguments[3]), count > 0 else {
        warn("usage: floor-bench S1|S2|S4 URL N [CONCURRENCY]")
        exit(2)
    }
    let scenario = arguments[1], url = arguments[2]
    let width = arguments.count > 4 ? Int(arguments[4]) ?? 64 : 64
    guard width > 0 else { fatal("CONCURRENCY must be positive") }
    guard curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK, let mailbox = Mailbox() else { fatal("libcurl could not start") }
    startEngine(mailbox)

    let tally: Tally
    let wallStart: ContinuousClock.Instant
    let cpuStart: Double
    if scenario == "S2" {
        let handles = (0..<width).map { _ in makeHandle(url: url, post: false) }
        _ = await concurrent(4 * width, handles: handles, mailbox: mailbox)  // warm-up: opens the connections
        (cpuStart, _) = cpuSeconds()
        wallStart = .now
        tally = await concurrent(count, handles: handles, mailbox: mailbox)
    } else {
        let handle = makeHandle(url: url, post: scenario == "S4")
        _ = await sequential(100, handle: handle, mailbox: mailbox)  // warm-up
        (cpuStart, _) = cpuSeconds()
        wallStart = .now
        tally = await sequential(count, handle: handle, mailbox: mailbox)
    }
    let wall = ContinuousClock.now - wallStart
    let (cpuEnd, maxRSS) = cpuSeconds()
    printResult(client: best ? "floor-best" : "floor", scenario: scenario, count: count, bytes: tally.bytes, wall: wall, cpu: cpuEnd - cpuStart,
                maxRSS: maxRSS, errors: tally.errors)
    exit(tally.errors == 0 ? 0 : 1)
}

if mainThreadSleeps { runDetachedWhileMainSleeps { await main() } }
await main()
