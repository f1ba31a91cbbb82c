import BrickSystem
import BrickTransport
import Dispatch
import Glibc
import LoopbackServer

/// An HTTP/1.1 server on real loopback sockets that misbehaves on request, for tests of retries and errors.
///
/// The fault is chosen by the path and applies to the first `times` requests of a `key` (query
/// parameters; every request is counted by its key); later ones get 200 `ok`. Without `times`, always.
/// - `/ok` — 200 with body `ok`.
/// - `/redirect?to=URL` — 302 to `URL` (percent-decoded).
/// - `/status?code=503&retry_after=S` — `code`, with `Retry-After: S` when given.
/// - `/reset` — reads the request, then resets the connection (RST).
/// - `/close-after-read` — reads the whole request, then closes the connection without answering.
/// - `/close-then-refuse` — the same, and the listener refuses new connections until ``serve()``.
/// - `/reset-during-body` — reads the request's head, then resets while the body is still coming.
/// - `/status` also takes `date=` and `expires=` (spaces as `%20`) for those fields.
/// - `/big-header?bytes=N` — one field of N bytes; `/many-headers?count=N` — N fields; `/folded?count=N` —
///   one field folded over N continuation lines.
/// - `/trailers` — a chunked body with trailers, one of them shaped like a status line.
/// - `/gated` — announces 4 bytes and sends 2; the other 2 only once the test calls ``openGate(_:)``.
/// - `/gated-upload` — reads 1 MiB of the request body, the rest only after ``openGate(_:)``.
/// - `/reset-mid-body` — sends a head announcing 100,000 bytes and 1,000 of them, then resets.
/// - `/truncated` — announces 1,000 bytes, sends 500, closes cleanly.
/// - `/malformed` — answers with a status line that is not HTTP.
/// - `/hang` — never answers.
/// - `/slow?ms=M&every=K` — 200 `ok`; the first request of the key and every K-th after it (default 10)
///   first waits M milliseconds (default 1000).
/// - `/drip?bytes=N&ms=M` — announces N bytes and sends one every M milliseconds.
/// - `/ledger` — 200, recording the method, body and `Idempotency-Key` of each request (``ledger(_:)``).
/// - `/events` — server-sent events in awkward pieces (``serveEvents(_:lastEventID:arrival:)``).
/// - `/scripted` — the answers a test gave with ``script(_:_:)``, one per request of the key, byte for byte.
/// - `/blob?size=N&seed=S` — N bytes of ``Blob`` `S`, with `ETag: "vS"` (none with `etag=0`) and a fixed
///   `Last-Modified` (with `lastmod=1`); honours `Range: bytes=A-` and `If-Range` (206, or 416 past the
///   end). `cut=M` closes the connection once byte M of the resource has been sent (under `times`);
///   `change_after=K` makes the resource `S+1` (new bytes, new tag) from the request after the K-th;
///   `lie=1` answers a range even when `If-Range` no longer matches.
///
/// With `keepAlive`, answers that end cleanly keep the connection for the next request, so that any fault
/// can be met on a reused connection too.
///
/// The listener itself can ``refuse()`` connections (it closes; the port is kept) and ``serve()`` again,
/// or reset every connection as soon as it is accepted (``resetOnAccept``).
public final class FaultServer: Sendable {
    /// What the listener does with new connections.
    public enum Listening: Sendable { case serving, refusing, resettingOnAccept }

    private struct State {
        var listener: Int32 = -1
        /// While refusing: a socket bound to the port, never listening, so that no other server of the test
        /// process takes the port meanwhile (a parallel test's server once did, and answered the retry).
        var portHolder: Int32 = -1
        var mode = Listening.serving
        var connections: Set<Int32> = []
        var arrivals: [String: [UInt64]] = [:]
        /// The client's port of each request, per key: which connection carried it.
        var peers: [String: [Int]] = [:]
        var ranges: [String: [String]] = [:]
        var ledgers: [String: [LedgerEntry]] = [:]
        var watchers: [(key: String, count: Int, waiter: CheckedContinuation<Void, Never>)] = []
        var gates: [String: DispatchSemaphore] = [:]
        var scripts: [String: [String]] = [:]
        var heads: [String: [[String]]] = [:]
        var stopped = false
    }

    /// The port, kept while refusing.
    public let port: Int
    /// Whether connections stay open after an answer (`/ok`, `/status` and the header faults), so that
    /// faults can be met on a reused connection; otherwise every answer says `Connection: close`.
    public let keepAlive: Bool
    private let state = Locked(State())

    /// Listens on a free loopback port.
    ///
    /// - Parameter keepAlive: Whether answers keep the connection open for the client's next request.
    public init(keepAlive: Bool = false) throws(TestServerError) {
        let (fd, port) = try Sockets.listener()
        self.port = port
        self.keepAlive = keepAlive
        state.withLock { $0.listener = fd }
        try startAccepting(fd)
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// How many requests carried `key` so far.
    public func count(_ key: String) -> Int { state.withLock { $0.arrivals[key]?.count ?? 0 } }

    /// The `Range` field of each request carrying `key` (empty when it had none), in arrival order.
    public func ranges(_ key: String) -> [String] { state.withLock { $0.ranges[key] ?? [] } }

    /// The field lines of each request carrying `key`, as they came, in arrival order.
    public func fieldLines(_ key: String) -> [[String]] { state.withLock { $0.heads[key] ?? [] } }

    /// Sets what `/scripted?key=<key>` answers: the n-th request gets the n-th answer (the last one once they
    /// run out), written as given (head and body; `\n` alone is sent as it is), and the connection closes.
    public func script(_ key: String, _ answers: [String]) { state.withLock { $0.scripts[key] = answers } }

    func answerScripted(_ fd: Int32, key: String, arrival: Int) -> AfterAnswer {
        let answers = state.withLock { $0.scripts[key] ?? [] }
        guard let last = answers.last else {
            respond(fd, status: 404, body: "no script")
            return .close
        }
        _ = send(fd, arrival <= answers.count ? answers[arrival - 1] : last)
        return .close
    }

    /// What `/ledger` recorded for `key`, in arrival order.
    public func ledger(_ key: String) -> [LedgerEntry] { state.withLock { $0.ledgers[key] ?? [] } }

    /// One request `/ledger` recorded.
    public struct LedgerEntry: Sendable, Equatable, Codable {
        public let method: String
        public let body: String
        public let idempotencyKey: String?
    }

    /// When each request carrying `key` was read, in nanoseconds of `CLOCK_MONOTONIC`.
    public func arrivals(_ key: String) -> [UInt64] { state.withLock { $0.arrivals[key] ?? [] } }

    /// How many of the requests of `key` each connection carried, by the connection's client port.
    public func requestsPerConnection(_ key: String) -> [Int: Int] {
        state.withLock { $0.peers[key] ?? [] }.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    /// Returns once `count` requests carrying `key` have been read.
    public func waitForArrivals(_ key: String, count: Int = 1) async {
        await withCheckedContinuation { waiter in
            let ready = state.withLock { state in
                if state.arrivals[key, default: []].count >= count { return true }
                state.watchers.append((key, count, waiter))
                return false
            }
            if ready { waiter.resume() }
        }
    }

    /// Lets a `/gated` answer for `key` send its second half.
    public func openGate(_ key: String) { gate(key).signal() }

    private func gate(_ key: String) -> DispatchSemaphore {
        state.withLock { state in
            if let gate = state.gates[key] { return gate }
            let gate = DispatchSemaphore(value: 0)
            state.gates[key] = gate
            return gate
        }
    }

    /// Closes the listener (connections are refused) but keeps the port for ``serve()``.
    public func refuse() {
        state.withLock { state in
            state.mode = .refusing
            if state.listener >= 0 { shutdown(state.listener, Int32(SHUT_RDWR)) }
            state.listener = -1
            if state.portHolder < 0 { state.portHolder = (try? Sockets.refusingPort(port))?.fd ?? -1 }
        }
    }

    /// Accepts and serves connections again, on the same port.
    public func serve() throws(TestServerError) {
        let needsListener = state.withLock { state in
            defer { state.mode = .serving }
            return state.listener < 0
        }
        guard needsListener else { return }
        let (fd, _) = try Sockets.listener(port: port)
        let holder = state.withLock { state in
            state.listener = fd
            defer { state.portHolder = -1 }
            return state.portHolder
        }
        if holder >= 0 { close(holder) }
        try startAccepting(fd)
    }

    /// Resets every connection as soon as it is accepted (`true`), or serves them (`false`).
    public func resetOnAccept(_ enabled: Bool) {
        state.withLock { $0.mode = enabled ? .resettingOnAccept : .serving }
    }

    /// Stops listening and closes every connection (hanging ones included). Shuts them down under the lock:
    /// a descriptor leaves ``State`` before it is closed, so a number another socket of the process may
    /// already reuse is never touched.
    public func stop() {
        state.withLock { state in
            state.stopped = true
            for fd in state.connections { shutdown(fd, Int32(SHUT_RDWR)) }
            if state.listener >= 0 { shutdown(state.listener, Int32(SHUT_RDWR)) }
            if state.portHolder >= 0 { close(state.portHolder) }
            state.portHolder = -1
        }
    }

    deinit { stop() }

    public static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    // MARK: Serving

    private func startAccepting(_ listener: Int32) throws(TestServerError) {
        do { try spawnThread { [self] in acceptLoop(listener) } } catch {
            close(listener)
            throw TestServerError("cannot start the fault server's thread: \(error)")
        }
    }

    private func acceptLoop(_ listener: Int32) {
        defer {
            state.withLock { state in
                if state.listener == listener { state.listener = -1 }
            }
            close(listener)
        }
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            let mode = state.withLock { state -> Listening? in
                if state.stopped { return nil }
                state.connections.insert(fd)
                return state.mode
            }
            guard let mode else { close(fd); return }
            if mode == .resettingOnAccept {
                reset(fd)
                continue
            }
            do { try spawnThread { [self] in serve(fd) } } catch { reset(fd) }
        }
    }

    private func serve(_ fd: Int32) {
        var buffer: [UInt8] = []
        while let request = FaultRequest.read(from: fd, buffer: &buffer) {
            buffer.removeAll()
            switch answer(fd, request) {
            case .keepOpen where keepAlive: continue
            case .keepOpen, .close: finish(fd)
            case .reset: reset(fd)
            case .closed: break
            }
            return
        }
        finish(fd)
    }

    /// What becomes of a connection after an answer.
    enum AfterAnswer { case keepOpen, close, reset, closed }

    private func answer(_ fd: Int32, _ request: FaultRequest) -> AfterAnswer {
        let key = request.query["key"] ?? ""
        let (seen, ready) = state.withLock { state in
            state.arrivals[key, default: []].append(Self.monotonicNanoseconds())
            state.peers[key, default: []].append(Sockets.peerPort(of: fd) ?? 0)
            state.ranges[key, default: []].append(request.headers["range"] ?? "")
            state.heads[key, default: []].append(request.fieldLines)
            let seen = state.arrivals[key]?.count ?? 0
            let ready = state.watchers.filter { $0.key == key && $0.count <= seen }.map(\.waiter)
            state.watchers.removeAll { $0.key == key && $0.count <= seen }
            return (seen, ready)
        }
        ready.forEach { $0.resume() }
        let times = Int(request.query["times"] ?? "") ?? Int.max
        if request.path == "/blob" {
            serveBlob(fd, request, arrival: seen, faulty: seen <= times)
            return .close
        }
        if request.path == "/ledger" {
            let entry = LedgerEntry(method: request.method, body: String(decoding: request.body, as: UTF8.self),
                                    idempotencyKey: request.headers["idempotency-key"])
            let count = state.withLock { state in
                state.ledgers[key, default: []].append(entry)
                return state.ledgers[key]?.count ?? 0
            }
            respond(fd, status: 200, body: "recorded \(count)")
            return .keepOpen
        }
        if request.path == "/scripted" {
            return answerScripted(fd, key: key, arrival: seen)
        }
        if request.path == "/events" {
            serveEvents(fd, lastEventID: request.headers["last-event-id"], arrival: seen)
            return .close
        }
        switch seen > times ? "/ok" : request.path {
        case "/ok":
            respond(fd, status: 200, body: "ok")
        case "/status":
            let code = Int(request.query["code"] ?? "") ?? 503
            var extra = request.query["retry_after"].map { "Retry-After: \(Self.decoded($0))\r\n" } ?? ""
            if let date = request.query["date"] { extra += "Date: \(Self.decoded(date))\r\n" }
            if let expires = request.query["expires"] { extra += "Expires: \(Self.decoded(expires))\r\n" }
            respond(fd, status: code, body: "failure \(seen)", extraHeaders: extra)
        case "/redirect":
            let target = (request.query["to"] ?? "/ok").removingPercentEncoding ?? "/ok"
            respond(fd, status: 302, body: "", extraHeaders: "Location: \(target)\r\n")
        case "/reset", "/reset-during-body":
            return .reset
        case "/close-after-read":
            return .close  // the request was read whole; the connection closes without an answer
        case "/close-then-refuse":
            refuse()  // and new connections are refused until ``serve()``
            return .close
        case "/reset-mid-body":
            _ = send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + String(repeating: "x", count: 1000))
            return .reset
        case "/truncated":
            _ = send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n" + String(repeating: "x", count: 500))
            return .close
        case "/malformed":
            _ = send(fd, "HTTQ/9 two hundred\r\nthis is not http\r\n\r\n")
            return .close
        case "/big-header":
            let bytes = Int(request.query["bytes"] ?? "") ?? 1 << 20
            guard send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Big: ") else { return .close }
            let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 64 << 10)
            var sent = 0
            while sent < bytes {
                guard sendBytes(fd, Array(piece.prefix(bytes - sent))) else { return .close }
                sent += min(piece.count, bytes - sent)
            }
            _ = send(fd, "\r\n\r\nok")
        case "/many-headers", "/folded":
            let count = Int(request.query["count"] ?? "") ?? 10_000
            let line = request.path == "/folded" ? " x\r\n" : "X-Many: x\r\n"
            _ = send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Folded: start\r\n"
                + String(repeating: line, count: count) + "\r\nok")
        case "/trailers":
            _ = send(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n\r\n"
                + "2\r\nok\r\n0\r\nHTTP/1.1 500 Not a status: x\r\nX-Checksum: abc\r\n\r\n")
        case "/gated":
            guard send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\nab") else { return .close }
            gate(key).wait()  // until the test saw the first half: the rest is sent only then
            _ = send(fd, "cd")
            return .close
        case "/gated-upload":
            // Takes 1 MiB of the body, then the rest only once the test opened the gate (after it saw the
            // upload's first progress), then answers with the body's length once every byte came.
            var left = request.unreadBody
            var sink = [UInt8](repeating: 0, count: 64 << 10)
            func take(_ count: Int) -> Bool {
                var taken = 0
                while taken < count {
                    let got = sink.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min($0.count, count - taken), 0) }
                    guard got > 0 else { return false }
                    taken += got
                }
                left -= taken
                return true
            }
            guard take(min(left, 1 << 20)) else { return .close }
            gate(key).wait()
            guard take(left) else { return .close }
            respond(fd, status: 200, body: request.headers["content-length"] ?? "")  // every byte came
            return .close
        case "/slow":
            // The fault: one request in `every` of its key (the first, then every `every`-th) waits `ms` first.
            let every = max(1, Int(request.query["every"] ?? "") ?? 10)
            if (seen - 1) % every == 0 { usleep((UInt32(request.query["ms"] ?? "") ?? 1000) * 1000) }
            respond(fd, status: 200, body: "ok")
        case "/hang":
            var sink = [UInt8](repeating: 0, count: 1024)
            while sink.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, 0) }) > 0 {}
            return .close
        case "/drip":
            let bytes = Int(request.query["bytes"] ?? "") ?? 100
            let interval = UInt32(request.query["ms"] ?? "") ?? 100
            guard send(fd, "HTTP/1.1 200 OK\r\nContent-Length: \(bytes)\r\nConnection: close\r\n\r\n") else { return .close }
            for _ in 0..<bytes {
                usleep(interval * 1000)  // the fault itself: a server that sends slowly
                guard send(fd, "x") else { break }
            }
            return .close
        default:
            respond(fd, status: 404, body: "no such fault")
        }
        return .keepOpen
    }

    /// A query value with `%20` turned back into spaces (the values the tests send are otherwise plain).
    private static func decoded(_ value: String) -> String { value.split(separator: "%20", omittingEmptySubsequences: false).joined(separator: " ") }

    private func serveBlob(_ fd: Int32, _ request: FaultRequest, arrival: Int, faulty: Bool) {
        let size = Int(request.query["size"] ?? "") ?? 1 << 20
        let changeAfter = Int(request.query["change_after"] ?? "") ?? Int.max
        let seed = (UInt64(request.query["seed"] ?? "") ?? 1) + (arrival > changeAfter ? 1 : 0)
        let tag = request.query["etag"] == "0" ? nil : "\"v\(seed)\""
        let modified = request.query["lastmod"] == "1" ? "Sun, 06 Nov 1994 08:49:37 GMT" : nil
        var validators = ""
        if let tag { validators += "ETag: \(tag)\r\n" }
        if let modified { validators += "Last-Modified: \(modified)\r\n" }
        var start = 0
        var status = "200 OK"
        if let range = request.headers["range"], range.hasPrefix("bytes="), range.hasSuffix("-"),
            let first = Int(range.dropFirst(6).dropLast())
        {
            let condition = request.headers["if-range"]
            // `lie=1`: a range of the current version whatever `If-Range` says (a server that ignores it).
            if condition == nil || condition == tag || (tag == nil && condition == modified) || request.query["lie"] == "1" {
                guard first < size else {
                    _ = send(fd, "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */\(size)\r\nContent-Length: 0\r\nConnection: close\r\n\(validators)\r\n")
                    return
                }
                start = first
                status = "206 Partial Content"
                validators += "Content-Range: bytes \(first)-\(size - 1)/\(size)\r\n"
            }
        }
        guard send(fd, "HTTP/1.1 \(status)\r\nContent-Length: \(size - start)\r\nConnection: close\r\n\(validators)\r\n") else { return }
        let cut = faulty ? Int(request.query["cut"] ?? "") : nil
        let end = min(size, max(start, cut ?? size))
        var position = start
        while position < end {
            let piece = Blob.bytes(seed: seed, range: position..<min(end, position + (256 << 10)))
            guard sendBytes(fd, piece) else { return }
            position += piece.count
        }
    }

    private func respond(_ fd: Int32, status: Int, body: String, extraHeaders: String = "") {
        let connection = keepAlive ? "" : "Connection: close\r\n"
        _ = send(fd, "HTTP/1.1 \(status) Status\r\nContent-Length: \(body.utf8.count)\r\n\(connection)\(extraHeaders)\r\n\(body)")
    }

    func send(_ fd: Int32, _ text: String) -> Bool { sendBytes(fd, Array(text.utf8)) }

    func sendBytes(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Closes with a reset rather than a FIN: linger on, timeout zero.
    private func reset(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        finish(fd)
    }

    private func finish(_ fd: Int32) {
        state.withLock { _ = $0.connections.remove(fd) }
        close(fd)
    }
}

/// The parts of a request the fault server looks at: path and query. The body is read and dropped.
struct FaultRequest {
    let method: String
    let path: String
    let query: [String: String]
    /// Header fields by lowercased name.
    let headers: [String: String]
    /// The head's field lines as they came, in order, repeated names included.
    let fieldLines: [String]
    /// Body bytes still on the socket (paths that read the body themselves).
    let unreadBody: Int
    /// The body's first 64 KiB, for paths that keep it (`/ledger`).
    let body: [UInt8]

    static func read(from fd: Int32, buffer: inout [UInt8]) -> FaultRequest? {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let terminator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
            headEnd = buffer.indices.dropLast(3).first { buffer[$0..<($0 + 4)].elementsEqual(terminator) }
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        let target = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            headers[parts[0].lowercased()] = String(parts[1].trimmingPrefix(" "))
        }
        let pathEnd = target.firstIndex(of: "?") ?? target.endIndex
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        var remaining = length - (buffer.count - headEnd - 4)
        var body = Array(buffer[(headEnd + 4)...].prefix(min(length, 65536)))
        // `/reset-during-body` answers (with a reset) before reading the body, while the client still sends it;
        // `/gated-upload` reads the body itself.
        let readsBody = target[..<pathEnd] != "/reset-during-body" && target[..<pathEnd] != "/gated-upload"
        while remaining > 0, readsBody {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min($0.count, remaining), 0) }
            guard count > 0 else { return nil }
            if body.count < min(length, 65536) { body += chunk[..<min(count, 65536 - body.count)] }
            remaining -= count
        }
        var query: [String: String] = [:]
        if pathEnd < target.endIndex {
            for pair in target[target.index(after: pathEnd)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                query[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
        }
        let method = lines.first?.split(separator: " ").first.map(String.init) ?? "GET"
        return FaultRequest(method: method, path: String(target[..<pathEnd]), query: query, headers: headers,
                            fieldLines: lines.dropFirst().map(String.init),
                            unreadBody: readsBody ? 0 : max(0, remaining), body: body)
    }
}

/// The bytes the fault server's `/blob` serves: a pure function of a seed and a position, so that a test
/// can check any range of a download without keeping the whole resource.
public enum Blob {
    /// The bytes of blob `seed` at `range`.
    ///
    /// A plain loop into uninitialized storage: `range.map` goes through generic code in a debug build, which
    /// under ThreadSanitizer takes the runtime's metadata lock for every byte, and a few servers making
    /// megabytes at once then spent minutes of system time contending for it.
    public static func bytes(seed: UInt64, range: Range<Int>) -> [UInt8] {
        let salt = seed &* 0xBF58_476D_1CE4_E5B9
        let lower = range.lowerBound
        return [UInt8](unsafeUninitializedCapacity: range.count) { buffer, initialized in
            for offset in 0..<buffer.count {
                buffer[offset] = UInt8(truncatingIfNeeded: (UInt64(lower + offset) &* 0x9E37_79B9_7F4A_7C15 &+ salt) >> 56)
            }
            initialized = buffer.count
        }
    }
}
