public import BrickCassette
public import BrickCore
public import Testing

/// A Swift Testing trait that runs a test against a cassette: the test's requests through sessions like
/// `session` (those of the session bricks, through `Session.current`) are recorded into the HAR file or
/// answered from it.
///
/// ```swift
/// @Test(.cassette("users.har", like: .api))
/// func userIsFound() async throws {
///     let user = try await GetUser(userID: "100").response()
///     #expect(user["args"]?["userID"]?.stringValue == "100")
/// }
/// ```
/// A relative path is taken from the directory of the test's source file (`users.har` beside it). The
/// recording is written when the test ends without throwing; `BRICK_RECORD=all swift test` records every
/// cassette again.
public struct CassetteTrait: TestTrait, TestScoping {
    let path: String
    let mode: Cassette.Mode
    let redaction: CassetteRedaction
    let matching: ReplayMatching
    let session: @Sendable () -> Session

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let cassette = try Cassette(path, mode: mode, redaction: redaction, matching: matching)
        try await cassette.run(like: session()) { try await function() }
    }
}

extension Trait where Self == CassetteTrait {
    /// Runs the test against the cassette at `path` (relative to the test's source file's directory).
    /// - Parameters:
    ///   - path: The HAR file.
    ///   - mode: When to record. Default `.once`: replay when the file exists, record it when it does not.
    ///   - redaction: What recording leaves out. Default: every secret the logger knows of.
    ///   - matching: How replay finds a request's answer. Default: method and URL.
    ///   - session: The session whose configuration (and, while recording, transport) the cassette's session takes.
    ///   - filePath: The test's source file, whose directory a relative `path` starts from. Leave it out.
    public static func cassette(
        _ path: String, mode: Cassette.Mode = .once, redaction: CassetteRedaction = CassetteRedaction(),
        matching: ReplayMatching = ReplayMatching(), like session: @autoclosure @escaping @Sendable () -> Session,
        filePath: String = #filePath
    ) -> Self {
        let directory = filePath.lastIndex(of: "/").map { String(filePath[..<$0]) } ?? "."
        return CassetteTrait(
            path: path.hasPrefix("/") ? path : directory + "/" + path, mode: mode, redaction: redaction, matching: matching,
            session: session)
    }
}
