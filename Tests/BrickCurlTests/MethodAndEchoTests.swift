import BrickCurl
import BrickSystem
import BrickTransport
import Foundation
import LoopbackServer
import TestServers
import Testing

@Suite struct MethodAndEchoTests {
    @Test(arguments: ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT"])
    func sendsEveryMethodOnTheRequestLine(method: String) async throws {
        let seen = Locked<[String]>([])
        let server = try LoopbackServer { request in
            seen.withLock { $0.append(request.method) }
            return .text("ok")
        }
        defer { server.stop() }
        let response = try await send(server.baseURL + "/method", method: HTTPMethod(method))
        #expect(response.head.status == 200)
        #expect(seen.withLock { $0 } == [method])
        #expect(response.body.count == (method == "HEAD" ? 0 : 2))
    }

    @Test(arguments: ["POST", "PUT", "PATCH", "DELETE"])
    func echoesBodyOfMethodsWithBodies(method: String) async throws {
        let body = Data("name=Ada&lang=swift".utf8)
        let response = try await send(
            try httpbin().url("/anything"), method: HTTPMethod(method),
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: body)
        let echo = try json(response)
        #expect(echo["method"] as? String == method)
        #expect(echo["form"] as? [String: String] == ["name": "Ada", "lang": "swift"])
    }

    @Test func echoesTheQuery() async throws {
        let response = try await send(try httpbin().url("/get?a=1&b=two%20words&c=%E2%9C%93"))
        #expect(try json(response)["args"] as? [String: String] == ["a": "1", "b": "two words", "c": "✓"])
    }

    @Test func sendsHeadersAsWritten() async throws {
        let response = try await send(try httpbin().url("/headers"), headers: ["X-Brick": "red", "Accept": "application/json"])
        let headers = try #require(try json(response)["headers"] as? [String: String])
        #expect(headers["X-Brick"] == "red")
        #expect(headers["Accept"] == "application/json")
        #expect(headers["Expect"] == nil)
    }

    /// A request that names no `Accept` goes without one (it accepts any type, RFC 9110 §12.5.1): libcurl's
    /// `Accept: */*` stays out. One that names its own sends exactly that, an empty value too, on a new
    /// connection and on a kept one, and the next without one again sends none.
    @Test func acceptGoesOnlyWhenTheRequestNamesIt() async throws {
        let seen = Locked<[[String]]>([])
        let server = try LoopbackServer { request in
            seen.withLock { $0.append(request.headers.filter { $0.name.lowercased() == "accept" }.map(\.value)) }
            return .text("ok")
        }
        defer { server.stop() }
        let transport = try #require(CurlTransport())
        var reused: [Bool] = []
        for accept in [nil, "application/json", nil, ""] as [String?] {
            let headers: HTTPHeaders = accept.map { ["Accept": $0] } ?? [:]
            let response = try await send(server.baseURL + "/accept", headers: headers, through: transport)
            #expect(response.head.status == 200)
            reused.append(response.metrics.reusedConnection)
        }
        await transport.shutdown()
        #expect(reused == [false, true, true, true])
        #expect(seen.withLock { $0 } == [[], ["application/json"], [], [""]])
    }

    @Test func sendsAnEmptyHeaderValue() async throws {
        let response = try await send(try httpbin().url("/headers"), headers: ["X-Empty": ""])
        let headers = try #require(try json(response)["headers"] as? [String: String])
        #expect(headers["X-Empty"] == "")
    }

    @Test func aBinaryBodyArrivesByteForByte() async throws {
        let bytes = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let response = try await send(
            try httpbin().url("/anything"), method: .post, headers: ["Content-Type": "application/octet-stream"], body: bytes)
        let echoed = try #require(try json(response)["data"] as? String)
        let prefix = "data:application/octet-stream;base64,"
        #expect(echoed.hasPrefix(prefix))
        #expect(Data(base64Encoded: String(echoed.dropFirst(prefix.count))) == bytes)
    }

    /// A form's `Content-Type` is left for libcurl to write (it writes that one line itself, by one copy):
    /// the server sees it once, exactly, whether the body is in memory or streamed, the name in any case, on
    /// a fresh connection and on a kept one; a body with no type still goes without one afterwards.
    @Test func aFormTypeArrivesOnceAndABodyWithoutTypeGoesWithout() async throws {
        let seen = Locked<[(types: [String], body: String)]>([])
        let server = try LoopbackServer { request in
            let types = request.headers.filter { $0.name.lowercased() == "content-type" }.map(\.value)
            seen.withLock { $0.append((types, String(decoding: request.body, as: UTF8.self))) }
            return .text("ok")
        }
        defer { server.stop() }
        let form = "name=Ada&lang=swift"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("form-\(UUID().uuidString)").path
        try Data(form.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let transport = try #require(CurlTransport())
        let formType = "application/x-www-form-urlencoded"
        let steps: [(name: String?, body: RequestBody, method: HTTPMethod)] = [
            ("Content-Type", .data(Data(form.utf8)), .post), ("content-type", .data(Data(form.utf8)), .post),
            ("Content-Type", .file(path: file), .post), ("Content-Type", .data(Data(form.utf8)), .put),
            (nil, .data(Data(form.utf8)), .post),
        ]
        var reused: [Bool] = []
        for step in steps {
            let headers: HTTPHeaders = step.name.map { [$0: formType] } ?? [:]
            let response = try await send(server.baseURL + "/form", method: step.method, headers: headers, bodyParts: step.body,
                                          through: transport)
            #expect(response.head.status == 200)
            reused.append(response.metrics.reusedConnection)
        }
        await transport.shutdown()
        #expect(reused.first == false && reused.dropFirst().allSatisfy { $0 })
        let requests = seen.withLock { $0 }
        #expect(requests.map(\.types) == [[formType], [formType], [formType], [formType], []])
        #expect(requests.allSatisfy { $0.body == form })
    }

    /// libcurl asks for `100 Continue` before a body of unknown length or over 1 MiB; a short body in memory
    /// goes without the empty `Expect:` that stops it (one field less for libcurl), the others with it. Either
    /// way the server never sees `Expect`, and every body arrives whole, on a fresh connection and on a kept one.
    @Test(arguments: [1 << 10, 600 << 10, 2 << 20])
    func noBodyAsksForContinueWhateverItsSize(size: Int) async throws {
        let seen = Locked<[(expect: String?, length: Int)]>([])
        let server = try LoopbackServer { request in
            seen.withLock { $0.append((request.header("Expect"), request.body.count)) }
            return .text("ok")
        }
        defer { server.stop() }
        let bytes = Data(repeating: UInt8(ascii: "x"), count: size)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("expect-\(UUID().uuidString)").path
        try bytes.write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let transport = try #require(CurlTransport())
        var reused: [Bool] = []
        for body in [RequestBody.data(bytes), .data(bytes), .file(path: file)] {
            let response = try await send(server.baseURL + "/upload", method: .post, bodyParts: body, through: transport)
            #expect(response.head.status == 200)
            reused.append(response.metrics.reusedConnection)
        }
        await transport.shutdown()
        #expect(reused.first == false && reused.dropFirst().contains(true))
        let requests = seen.withLock { $0 }
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.expect == nil && $0.length == size })
    }
}
