import BrickRequest
import Testing
import TestServers

/// What an error says is a sentence a user can read: no Swift enum syntax, against real servers.
@Suite struct ErrorDescriptionTests {
    static let enumSyntax = ["retriesExhausted(", "undecodable(", "notRetryable", "invalidJSON(", "emptyBody"]

    @Test func retriesSpentAndAMismatchedBodyAreSaidInWords() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let rules = AutoRetryConfiguration(breakTime: .milliseconds(1), maxRetryCount: 2, maxBreakTime: .milliseconds(1))
        let gaveUp = await Session().dataResponse(
            for: TransportRequest(url: server.baseURL + "/status?code=503&key=words"), retry: rules, validation: .successful)
        let said = "\(try #require(gaveUp.error))"
        #expect(said.contains("2 retries spent"), "\(said)")
        let mismatch = "\(try #require(await GetWrongShape().dataResponse().error))"
        #expect(mismatch.contains("the JSON does not decode at"), "\(mismatch)")
        for text in [said, mismatch] {
            for syntax in Self.enumSyntax { #expect(!text.contains(syntax), "\(syntax) in \(text)") }
        }
    }
}
