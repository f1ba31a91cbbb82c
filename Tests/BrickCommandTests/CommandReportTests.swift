import BrickRequest
import Foundation
import Testing
import TestServers

/// What the command tells on standard error: heads with secrets redacted, the timing waterfall, the
/// attempts of a retried request.
@Suite struct CommandReportTests {
    @Test func verboseShowsBothHeadsWithEverySecretRedacted() async throws {
        let outcome = try await Brick.run(
            "-v", "GET", try httpbin().url("/anything"), "X-Token:abc123", "Authorization:Bearer s3cret", "X-Client-Secret:hush",
            "access_token==t0p", "q==1")
        #expect(outcome.status == 0, "\(outcome.error)")
        let lines = outcome.error.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("> GET http://127.0.0.1:") && $0.hasSuffix("/anything?access_token=<redacted>&q=1") }, "\(lines)")
        #expect(lines.contains("> X-Token: <redacted>"))
        #expect(lines.contains("> Authorization: <redacted>"))
        #expect(lines.contains("> X-Client-Secret: <redacted>"))
        #expect(lines.contains { $0.hasPrefix("> User-Agent: BrickRequest/") })
        #expect(lines.contains("< HTTP/1.1 200 OK"))
        #expect(lines.contains("< Content-Type: application/json"))
        for secret in ["abc123", "s3cret", "hush", "t0p"] { #expect(!outcome.error.contains(secret)) }
        #expect(try Brick.json(outcome)["headers"]?["X-Token"]?.stringValue == "abc123")  // sent, only not shown
    }

    @Test func softRetryRepeatsA503AndTimingShowsTheWaterfallAndTheAttempts() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let url = server.baseURL + "/status?code=503&times=1&key=soft"
        let outcome = try await Brick.run("--retry", "soft", "--timing", "-v", url)
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.text == "ok")
        #expect(server.count("soft") == 2)
        let lines = outcome.error.split(separator: "\n").map(String.init)
        let attempts = try #require(lines.first { $0.hasPrefix("attempts: ") })
        #expect(attempts.contains("#1 503 → waited "), "\(attempts)")  // the first may wait for the route check
        #expect(attempts.hasSuffix(" → #2 200"), "\(attempts)")
        let timing = try #require(lines.first { $0.hasPrefix("timing: ") })
        for phase in ["DNS ", "connect ", "server ", "transfer "] { #expect(timing.contains(phase), "\(timing)") }
        #expect(lines.contains { $0.hasPrefix("* attempt 1, repeated: ") }, "\(lines)")
        #expect(lines.contains("* attempt 2"))
        #expect(lines.filter { $0.hasPrefix("< HTTP/") }.map { $0.prefix(14) } == ["< HTTP/1.1 503", "< HTTP/1.1 200"])

        let once = try await Brick.run("--timing", server.baseURL + "/status?code=503&times=1&key=none")
        #expect(once.status == 5)
        #expect(once.error.hasSuffix("#1 503\n"), "\(once.error)")
        #expect(server.count("none") == 1)
    }

    @Test func aPostThatMayHaveArrivedIsNeverSentTwiceEvenWithHardRetry() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let outcome = try await Brick.run("--retry", "hard", server.baseURL + "/close-after-read?times=1&key=post", "name=Ada")
        #expect(outcome.status == 1)
        #expect(server.count("post") == 1)
        #expect(outcome.error.contains("may have arrived") || outcome.error.contains("notIdempotent"), "\(outcome.error)")
    }
}
