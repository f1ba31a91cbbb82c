import Foundation
import TestServers
import Testing

/// Two bricks that supply the same requirement must make the class fail to compile. These tests type-check
/// small programs against the built modules with `swiftc` and read its verdict.
@Suite struct CompileTimeSafetyTests {
    /// The directory holding the built `.swiftmodule`s, next to the test bundle.
    static let modules: String = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first { $0.contains(".xctest") } ?? CommandLine.arguments[0])
        var directory = bundle.deletingLastPathComponent()
        while directory.path != "/" && !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Modules").path) {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("Modules").path
    }()

    /// Type-checks `source` (after `import BrickRequest`); returns swiftc's exit status and diagnostics.
    func typecheck(_ source: String) async throws -> (status: Int32, output: String) {
        let swiftc = try #require(["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let directory = try Paths.scratchDirectory("compile-checks")
        let name = "check-\(UUID().uuidString)"
        let file = directory + "/\(name).swift"
        try ("import BrickRequest\n" + source).write(toFile: file, atomically: true, encoding: .utf8)
        let products = URL(fileURLWithPath: Self.modules).deletingLastPathComponent()
        let moduleMaps = ["CCurlShim", "CNetlink", "CPublicSuffix", "CPercentEncoding", "CContentCoding", "CMutex"].flatMap {
            ["-Xcc", "-fmodule-map-file=" + products.appendingPathComponent("\($0).build/module.modulemap").path]
        }
        let log = directory + "/\(name).log"
        let process = try ChildProcess(
            [swiftc, "-typecheck", "-swift-version", "6", file, "-I", Self.modules, "-I", Paths.repository + "/Sources/CCurl"]
                + moduleMaps,
            logPath: log)
        let status = await process.exitStatus()
        defer { Paths.removeTree(directory) }
        return (status, Paths.read(log))
    }

    @Test func aClassOfCompatibleBricksCompiles() async throws {
        let result = try await typecheck("""
            final class Fine: Component, POSTRequestType, APISessionRequestType, SoftAutoRetryType, JSONBodyType,
                BearerAuthType, ShortTimeoutType, VerboseLoggingType, DataResponseType {
                let jsonBody = [1, 2]
                let bearerAuthenticator: BearerAuthenticator
                init(_ authenticator: BearerAuthenticator) { bearerAuthenticator = authenticator; super.init() }
            }
            """)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(arguments: [
        ("GETRequestType, POSTRequestType, APISessionRequestType, DataResponseType", "method"),
        ("GETRequestType, APISessionRequestType, SoftAutoRetryType, HardAutoRetryType, DataResponseType", "autoRetryConfiguration"),
        ("POSTRequestType, APISessionRequestType, FormURLEncodedBodyType, MultipartBodyType, DataResponseType", "encodeBody(into:)"),
        ("GETRequestType, APISessionRequestType, ShortTimeoutType, LongTimeoutType, DataResponseType", "transportOptions"),
        ("GETRequestType, APISessionRequestType, VerboseLoggingType, SilentLoggingType, DataResponseType", "requestLogging"),
        ("GETRequestType, APISessionRequestType, NoValidationType, ContentTypeValidationType, DataResponseType", "validation"),
        ("GETRequestType, APISessionRequestType, NoCacheType, CacheOnlyType, DataResponseType", "cacheMode"),
        ("GETRequestType, APISessionRequestType, CircuitBreakerType, UnbudgetedRetryType, DataResponseType", "originPolicy"),
    ])
    func twoBricksOfOneFamilyDoNotCompile(bricks: String, requirement: String) async throws {
        let result = try await typecheck("""
            final class Clash: Component, \(bricks) {
                var acceptableContentTypes: [String] { [] }
            }
            """)
        #expect(result.status != 0)
        #expect(result.output.contains("does not conform to protocol 'RequestType'"), "\(result.output)")
        #expect(result.output.contains("multiple matching") && result.output.contains(requirement.components(separatedBy: "(")[0]),
                "\(result.output)")
    }

    @Test func twoResponseBricksDoNotCompile() async throws {
        let result = try await typecheck("final class Clash: Component, GETRequestType, APISessionRequestType, JSONResponseType, StringResponseType {}")
        #expect(result.status != 0)
        #expect(result.output.contains("error:"), "\(result.output)")
    }

    /// A hedged request must be one that may be sent twice: a POST without an idempotency key is refused by
    /// the compiler; a GET, and a POST with a key, compile.
    @Test func onlyARequestThatMayGoTwiceCanBeHedged() async throws {
        let post = try await typecheck("final class Hedged: Component, POSTRequestType, APISessionRequestType, HedgedRequestType, DataResponseType {}")
        #expect(post.status != 0)
        #expect(post.output.contains("does not conform to protocol 'HedgedRequestType'"), "\(post.output)")
        let fine = try await typecheck("""
            final class HedgedGet: Component, GETRequestType, APISessionRequestType, HedgedRequestType, DataResponseType {}
            final class HedgedKeyedPost: Component, POSTRequestType, APISessionRequestType, IdempotencyKeyType, HedgedRequestType,
                DataResponseType {}
            """)
        #expect(fine.status == 0, "\(fine.output)")
    }
}
