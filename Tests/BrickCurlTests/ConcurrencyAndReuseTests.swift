import BrickCurl
import BrickSystem
import FoundationEssentials
import Dispatch
import Glibc
import LoopbackServer
import Synchronization
import TestServers
import Testing

@Suite struct ConcurrencyAndReuseTests {
    /// The server holds every request until `count` are open at once, so the test passes only if the client
    /// really has them all in flight together (and fails by timeout otherwise).
    @Test func twoHundredFiftyRequestsInFlightAtOnce() async throws {
        let count = 250
        let arrived = Atomic<Int>(0)
        let gate = DispatchSemaphore(value: 0)
        let server = try LoopbackServer { _ in
            if arrived.add(1, ordering: .sequentiallyConsistent).newValue == count {
                for _ in 0..<count { gate.signal() }
            }
            return gate.wait(timeout: .now() + 20) == .success ? .text("released") : .text("alone", status: 504)
        }
        defer { server.stop() }
        var configuration = CurlTransport.Configuration()
        configuration.maxConnectionsPerHost = count
        configuration.maxConnections = count
        let wide = try #require(CurlTransport(configuration: configuration))
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                group.addTask { try await send(server.baseURL + "/\(index)", through: wide).head.status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == count)
        #expect(statuses.allSatisfy { $0 == 200 })
    }

    @Test func thePerHostLimitQueuesTheRest() async throws {
        let open = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
        let server = try LoopbackServer { _ in
            let now = open.add(1, ordering: .sequentiallyConsistent).newValue
            peak.max(now, ordering: .sequentiallyConsistent)
            defer { open.subtract(1, ordering: .sequentiallyConsistent) }
            return .text("ok")
        }
        defer { server.stop() }
        var configuration = CurlTransport.Configuration()
        configuration.maxConnectionsPerHost = 2
        let narrow = try #require(CurlTransport(configuration: configuration))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 { group.addTask { _ = try await send(server.baseURL + "/", through: narrow) } }
            try await group.waitForAll()
        }
        #expect(peak.load(ordering: .sequentiallyConsistent) <= 2)
    }

    @Test func sequentialRequestsReuseOneConnection() async throws {
        let server = try nginx()
        let own = try #require(CurlTransport())
        let marker = "/small?reuse-\(UInt64.random(in: 0...UInt64.max))"
        var reused: [Bool] = []
        for _ in 0..<10 { reused.append(try await send(server.url(marker), through: own).metrics.reusedConnection) }
        #expect(reused == [false] + Array(repeating: true, count: 9))
        let connections = Set(server.accessLog().filter { $0.contains(marker) }.map { $0.split(separator: " ")[0] })
        #expect(connections.count == 1)
    }

    @Test func http2MultiplexesConcurrentRequestsOverOneTLSConnection() async throws {
        let server = try nginx()
        var trusting = TransportOptions()
        trusting.caBundlePath = server.certificatePath
        let options = trusting
        let own = try #require(CurlTransport())
        let marker = "/small?h2-\(UInt64.random(in: 0...UInt64.max))"
        let versions = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask { try await send(server.tlsURL(marker), options: options, through: own).head.version }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(versions == Array(repeating: "2", count: 20))
        let lines = server.accessLog().filter { $0.contains(marker) }
        #expect(lines.count == 20)
        #expect(lines.allSatisfy { $0.contains("HTTP/2.0") })
        #expect(Set(lines.map { $0.split(separator: " ")[0] }).count == 1)
    }

    @Test func http1OnlySpeaksHTTP11ToAServerThatOffersHTTP2() async throws {
        let server = try nginx()
        var options = TransportOptions()
        options.caBundlePath = server.certificatePath
        options.httpVersion = .http1Only
        let marker = "/small?h1-\(UInt64.random(in: 0...UInt64.max))"
        let response = try await send(server.tlsURL(marker), options: options, through: transport())
        #expect(response.head.version == "1.1")
        #expect(server.accessLog().filter { $0.contains(marker) }.allSatisfy { $0.contains("HTTP/1.1") })
    }

    @Test func withoutReuseEveryRequestHasAConnectionOfItsOwn() async throws {
        let server = try nginx()
        var options = TransportOptions()
        options.caBundlePath = server.certificatePath
        options.reusesConnections = false
        let marker = "/small?fresh-\(UInt64.random(in: 0...UInt64.max))"
        let own = try #require(CurlTransport())
        for _ in 0..<3 { _ = try await send(server.tlsURL(marker), options: options, through: own) }
        let lines = server.accessLog().filter { $0.contains(marker) }
        #expect(lines.count == 3)
        #expect(Set(lines.map { $0.split(separator: " ")[0] }).count == 3)
    }

    /// On a transport with one connection, every request goes over the same connection: a request must carry
    /// nothing of the one before it (method, a custom one too, body, headers, decompression, timeouts).
    @Test func aReusedHandleCarriesNothingOverFromTheRequestBefore() async throws {
        let server = try httpbin()
        let single = try oneConnectionTransport()
        var noRedirects = TransportOptions()
        noRedirects.followRedirects = false
        noRedirects.timeout = .seconds(30)
        let posted = try await send(server.url("/anything"), method: .post, headers: ["X-First": "1", "Content-Type": "text/plain"],
                                    body: Data("first body".utf8), options: noRedirects, through: single)
        #expect(try json(posted)["data"] as? String == "first body")
        _ = try await send(server.url("/anything"), method: .delete, through: single)
        _ = try await send(server.url("/anything"), method: .head, through: single)
        var noDecompression = TransportOptions()
        noDecompression.automaticDecompression = false
        let plain = try await send(server.url("/anything"), options: noDecompression, through: single)
        let echo = try json(plain)
        #expect(echo["method"] as? String == "GET")
        #expect(echo["data"] as? String == "")
        let headers = try #require(echo["headers"] as? [String: Any])
        #expect(headers["X-First"] == nil)
        #expect(headers["Content-Type"] == nil)
        #expect(headers["Accept-Encoding"] == nil)
        #expect(!plain.body.isEmpty)  // the HEAD before it did not leave NOBODY set
    }

    /// On a transport with one connection (and so one kept handle), requests of the same kind follow one
    /// another on the same handle: each sends its own body and headers, none of the one before.
    @Test func aKeptHandleSendsOnlyItsOwnRequest() async throws {
        let server = try httpbin()
        let single = try oneConnectionTransport()
        let first = try json(try await send(server.url("/anything"), method: .post, headers: ["X-First": "1", "Content-Type": "text/plain"],
                                            body: Data("first body".utf8), through: single))
        let second = try json(try await send(server.url("/anything?n=2"), method: .post, headers: ["Content-Type": "text/plain"],
                                             body: Data("second".utf8), through: single))
        #expect(first["data"] as? String == "first body")
        #expect(second["data"] as? String == "second")
        #expect(second["url"] as? String == server.url("/anything?n=2"))
        #expect((second["headers"] as? [String: Any])?["X-First"] == nil)
        let third = try json(try await send(server.url("/anything"), headers: ["X-Third": "3"], through: single))
        let fourth = try json(try await send(server.url("/anything"), through: single))
        #expect((third["headers"] as? [String: Any])?["X-Third"] as? String == "3")
        #expect((fourth["headers"] as? [String: Any])?["X-Third"] == nil)
        #expect(fourth["method"] as? String == "GET")
        #expect(fourth["data"] as? String == "")
        // A kept handle keeps its last URL and header list, and sets each again only when it differs: the same
        // request twice, then a changed value, then a changed URL.
        var echoes: [[String: Any]] = []
        for (path, value) in [("/anything?n=5", "5"), ("/anything?n=5", "5"), ("/anything?n=5", "five"), ("/anything?n=6", "five")] {
            echoes.append(try json(try await send(server.url(path), headers: ["X-Fifth": value], through: single)))
        }
        #expect(echoes.map { ($0["headers"] as? [String: Any])?["X-Fifth"] as? String } == ["5", "5", "five", "five"])
        #expect(echoes.map { $0["url"] as? String } == ["/anything?n=5", "/anything?n=5", "/anything?n=5", "/anything?n=6"].map(server.url))
        _ = try await send(server.url("/anything"), method: .post, body: Data("in memory".utf8), through: single)
        // A body read through the callback never takes the handle of a body copied from memory: libcurl would
        // send the copied one. (TSan's timing found this: a multipart upload arrived with the POST's body.)
        let streamed = RequestBody.stream(BodyStream(UploadTests.Chunks(chunks: [Data("streamed".utf8)]), length: 8))
        let fifth = try json(try await send(server.url("/anything"), method: .post, headers: ["Content-Type": "text/plain"],
                                            bodyParts: streamed, through: single))
        #expect(fifth["data"] as? String == "streamed")
    }

    /// A transport that has served a burst of HTTPS (HTTP/2) requests serves a thousand more at once, every
    /// one of them, on handles kept from the bursts before: a kept handle never has its receive buffer set
    /// again (libcurl refuses that after an HTTP/2 transfer, with "bad function argument").
    @Test func aWarmTransportServesAThousandConcurrentHTTPSRequests() async throws {
        let server = try nginx()
        var options = TransportOptions()
        options.caBundlePath = server.certificatePath
        let trusting = options
        let own = try #require(CurlTransport())
        for burst in [50, 10, 10, 1000] {
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<burst { group.addTask { try await send(server.tlsURL("/small"), options: trusting, through: own).head.status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: burst))
        }
    }

    /// A stream the engine paused (its queue was full) and that was then cancelled must leave nothing behind
    /// for the next transfer on a one-connection transport.
    @Test(.timeLimit(.minutes(1))) func aTransferAfterACancelledPausedStreamCompletes() async throws {
        let server = try nginx()
        let single = try oneConnectionTransport()
        var small = TransportOptions()
        small.streamBufferSize = 1  // one queued chunk fills it: the next chunk of the same pass pauses the transfer
        for _ in 0..<3 {
            let stream = single.makeTransfer(for: TransportRequest(method: .get, url: server.url("/big.bin"), options: small))
            var iterator = stream.events().makeAsyncIterator()
            var chunks = 0
            while chunks < 3, let event = try await iterator.next() {
                if case .body = event { chunks += 1 }
            }
            stream.cancel()
            let after = try await send(server.url("/small"), through: single)
            #expect(after.head.status == 200)
            #expect(after.body.count == 100)
        }
    }

    /// libcurl 7.88 opens its sockets without close-on-exec; the engine opens them itself, with it, so that
    /// a process the application spawns does not inherit a kept-alive connection and hold it open.
    @Test func keptAliveConnectionsAreClosedOnExec() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.stop() }
        let own = try #require(CurlTransport())
        #expect(try await send(server.baseURL + "/", through: own).head.status == 200)
        let toServer = Sockets.openDescriptors().filter { Sockets.peerPort(of: $0) == server.port }
        #expect(!toServer.isEmpty)  // the connection is still open, in libcurl's cache
        for descriptor in toServer { #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0) }
    }

    /// The tests' own harness: a child process (a server, a probe) inherits no descriptor of the test process,
    /// so that it cannot hold a test's connection open after the test closed it.
    @Test func aSpawnedChildInheritsNoDescriptor() async throws {
        let (listener, _) = try Sockets.listener()  // one descriptor without close-on-exec, at least
        defer { close(listener) }
        let directory = try Paths.scratchDirectory("inherit")
        defer { Paths.removeTree(directory) }
        let log = directory + "/fds.log"
        #expect(try await ChildProcess(["/bin/ls", "/proc/self/fd"], logPath: log).exitStatus() == 0)
        let inherited = Paths.read(log).split(separator: "\n").compactMap { Int32($0) }
        #expect(inherited.contains(1))  // the log itself
        #expect(inherited.allSatisfy { $0 <= 3 })  // 0–2, and ls's own directory
    }

    /// A transport with one connection, so that its transfers take turns on one easy handle.
    /// A kept handle holds its last URL parsed (libcurl's `CURLOPT_CURLU`): each request on it still goes
    /// to its own URL and reports that one as its effective URL, whether it repeats the one before or not,
    /// and another host's URL on the same handle opens its own connection.
    @Test func aKeptHandleGoesToEachRequestsOwnURL() async throws {
        let seen = Locked<[String]>([])
        let server = try LoopbackServer { request in
            seen.withLock { $0.append(request.query.isEmpty ? request.path : request.path + "?" + request.query) }
            return .text("ok")
        }
        defer { server.stop() }
        let single = try oneConnectionTransport()
        let other = server.baseURL.replacing("127.0.0.1", with: "localhost")
        let base = server.baseURL
        let urls: [String] = [base + "/a", base + "/a", base + "/b?x=1", base + "/a#part", other + "/c", base + "/a"]
        var responses: [TransportResponse] = []
        for url in urls { responses.append(try await send(url, through: single)) }
        await single.shutdown()
        #expect(seen.withLock { $0 } == ["/a", "/a", "/b?x=1", "/a", "/c", "/a"])
        #expect(responses.map(\.metrics.effectiveURL) == urls)  // libcurl keeps a fragment in it
        #expect(responses.map(\.metrics.reusedConnection) == [false, true, true, true, false, false])
    }

    /// Transfers launched one after another share the parsed URL and header list of the one before when
    /// theirs are the same: requests in flight together, each on a handle of its own, alternating two URLs
    /// and three sets of fields, each still arrive with their own path and fields.
    @Test func handlesInFlightTogetherSendEachTheirOwnURLAndFields() async throws {
        let seen = Locked<[String]>([])
        let server = try LoopbackServer { request in
            seen.withLock { $0.append([request.path, request.header("X-Kind") ?? "-", request.header("X-Extra") ?? "-"].joined(separator: " ")) }
            return .text("ok")
        }
        defer { server.stop() }
        var configuration = CurlTransport.Configuration()
        configuration.maxConnectionsPerHost = 16
        let wide = try #require(CurlTransport(configuration: configuration))
        func request(_ index: Int) -> (path: String, headers: HTTPHeaders) {
            var headers: HTTPHeaders = ["X-Kind": index % 2 == 0 ? "even" : "odd"]
            if index % 3 == 0 { headers["X-Extra"] = "third" }
            return (index % 4 < 2 ? "/left" : "/right", headers)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<32 {
                let (path, headers) = request(index)
                group.addTask { _ = try await send(server.baseURL + path, headers: headers, through: wide) }
            }
            try await group.waitForAll()
        }
        await wide.shutdown()
        let expected = (0..<32).map { index in
            let (path, headers) = request(index)
            return [path, headers["X-Kind"] ?? "-", headers["X-Extra"] ?? "-"].joined(separator: " ")
        }
        #expect(seen.withLock { $0 }.sorted() == expected.sorted())
    }

    private func oneConnectionTransport() throws -> CurlTransport {
        var configuration = CurlTransport.Configuration()
        configuration.maxConnections = 1
        configuration.maxConnectionsPerHost = 1
        return try #require(CurlTransport(configuration: configuration))
    }
}
