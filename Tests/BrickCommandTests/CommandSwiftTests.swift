import Foundation
import Testing
import TestServers

/// `--swift`: the class a command line stands for compiles against the library as built, with the call
/// shown beside it, and names the bricks the options chose.
@Suite struct CommandSwiftTests {
    static let commandLines: [[String]] = [
        ["POST", "https://api.example.com/v1/users", "name=Ada", "id:=12345678901234567890", "X-Token:abc", "page==2",
         "--retry", "soft", "--timeout", "2.5"],
        ["GET", ":8080/search", "q==brick \"quoted\" \\ back", "Accept:text/plain", "--retry", "hard"],
        ["PUT", "http://127.0.0.1/forms/entry", "--form", "a=1", "b=two words", "q==x", "--cacert", "/tmp/ca.pem", "--timeout", "3"],
        ["DELETE", "http://127.0.0.1/items/7"],
        ["HEAD", "http://127.0.0.1/"],
        ["PURGE", "http://127.0.0.1/cache/entry"],
        ["http://127.0.0.1/archive.tar", "--download", "/tmp/archive.tar"],
        ["GET", "http://docker/containers/json", "--unix-socket", "/var/run/docker.sock"],
        ["GET", "http://127.0.0.1/through", "--proxy", "proxy.internal:3128", "--timeout", "9"],
        ["GET", "http://127.0.0.1/direct", "--proxy", "none"],
        ["PATCH", "http://127.0.0.1/settings", "--json", #"{"theme": "dark", "ratio": 0.125, "tags": [], "nested": {"n": null}}"#],
        ["ws", "wss://chat.example.test/rooms/lobby", "X-Room:lobby", "token==abc", "--timeout", "5"],
    ]

    @Test func everyPrintedClassCompilesWithItsCall() async throws {
        let scratch = try Paths.scratchDirectory("brick-swift")
        defer { Paths.removeTree(scratch) }
        var files: [String] = []
        for (index, arguments) in Self.commandLines.enumerated() {
            let outcome = try await PipedChild.run([try Brick.path(), "--swift"] + arguments)
            #expect(outcome.status == 0, "\(arguments): \(outcome.error)")
            let source = Self.withCallInAFunction(outcome.text, number: index)
            let file = scratch + "/Request\(index).swift"
            try Paths.write(source, to: file)
            files.append(file)
        }
        let built = try #require(Paths.builtProduct("brick").map { String($0.dropLast("/brick".count)) })
        let swiftc = try #require(Self.onPath("swiftc"))
        let typecheck = try await PipedChild.run([
            swiftc, "-typecheck", "-swift-version", "6", "-I", built + "/Modules", "-I", Paths.repository + "/Sources/CCurl",
        ] + ["CCurlShim", "CNetlink", "CPublicSuffix", "CPercentEncoding", "CContentCoding", "CMutex"].flatMap { ["-Xcc", "-fmodule-map-file=\(built)/\($0).build/module.modulemap"] }
            + files)
        #expect(typecheck.status == 0, "\(typecheck.error)")
    }

    @Test func theBricksFollowTheCommandLine() async throws {
        func source(_ arguments: String...) async throws -> String {
            try await PipedChild.run([try Brick.path(), "--swift"] + arguments).text
        }
        let post = try await source("https://api.example.com/v1/users", "name=Ada", "--retry", "soft")
        #expect(post.contains("final class PostUsers: Component, POSTRequestType, APISessionRequestType, JSONBodyType, SoftAutoRetryType, JSONResponseType {"))
        #expect(post.contains(#"var jsonBody: JSON { .object(["name": .string("Ada")]) }"#))
        #expect(post.contains("// let response = try await PostUsers().response()"))
        #expect(post.contains("// Note: the retry brick repeats no POST the server may have received (it is not idempotent); add IdempotencyKeyType"))
        let named = try await source("POST", "https://httpbin.org/post", "a=b")
        #expect(named.contains("final class PostHttpbin: Component,"))
        #expect(!named.contains("// Note:"))
        #expect(try await source("http://h/users/7/orders?x=1").contains("final class GetUsersOrders: Component,"))
        #expect(try await source("http://127.0.0.1:8080/").contains("final class GetRoot: Component,"))
        let socket = try await source("ws", "wss://chat.example.test/rooms/lobby", "token==abc")
        #expect(socket.contains("final class RoomsLobbyWebSocket: Component, WebSocketRequestType, APISessionRequestType {"))
        #expect(socket.contains("// let socket = try await RoomsLobbyWebSocket().connect()"))
        #expect(try await source("ws", ":8080").contains("final class RootWebSocket: Component,"))

        let get = try await source("GET", "http://h/search", "q==1", "--timeout", "5", "--retry", "hard")
        #expect(get.contains("GETRequestType, APISessionRequestType, QueryParametersType, HardAutoRetryType, CustomTimeoutType, DataResponseType"))
        #expect(get.contains("var requestTimeout: Duration { .seconds(5) }"))
        #expect(get.contains(#"TextParameter("1", name: "q")"#))

        let download = try await source("http://h/a.tar", "-d", "a.tar")
        #expect(download.contains("final class GetATar: Component, GETRequestType, APISessionRequestType {"))
        #expect(download.contains(#"download(to: URL(fileURLWithPath: "a.tar"))"#))
    }

    /// The printed call (`// let response = try await X().response()`) as code in a function of its own.
    static func withCallInAFunction(_ source: String, number: Int) -> String {
        source.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.hasPrefix("// let ") else { return String(line) }
            return "func send\(number)() async throws {\n    \(line.dropFirst(3))\n    _ = \(line.dropFirst(7).prefix { $0 != " " })\n}"
        }.joined(separator: "\n")
    }

    static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
