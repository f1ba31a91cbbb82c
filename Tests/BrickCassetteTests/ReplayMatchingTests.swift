@testable import BrickCassette
import BrickRequest
import BrickTesting
import Foundation
import Testing
import TestServers

/// Replay's matching rules, one by one, on a cassette written by hand, and timings replayed on a manual clock.
@Suite struct ReplayMatchingTests {
    /// An entry for `method url` answering `body`, with request `headers` and `requestBody`.
    static func entry(_ method: String, _ url: String, body: String, headers: [(String, String)] = [], requestBody: String? = nil, time: Int = 1) -> String {
        let fields = headers.map { #"{"name": "\#($0.0)", "value": "\#($0.1)"}"# }.joined(separator: ", ")
        let post = requestBody.map { #", "postData": {"mimeType": "application/json", "text": "\#($0.replacing("\"", with: "\\\""))"}"# } ?? ""
        return """
            {"startedDateTime": "2026-11-27T10:00:00.000Z", "time": \(time), "cache": {}, "timings": {"send": 0, "wait": \(time), "receive": 0},
             "request": {"method": "\(method)", "url": "\(url)", "httpVersion": "HTTP/1.1", "headers": [\(fields)]\(post)},
             "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [],
                          "content": {"size": \(body.utf8.count), "mimeType": "text/plain", "text": "\(body)"}}}
            """
    }

    static func cassette(_ entries: [String], matching: ReplayMatching = ReplayMatching(), replaysTimings: Bool = false,
                         repeatsLastAnswer: Bool = false) throws -> Cassette {
        let path = try scratchCassette("matching.har")
        let text = #"{"log": {"version": "1.2", "creator": {"name": "hand", "version": "1"}, "entries": [\#(entries.joined(separator: ", "))]}}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try Cassette(path, mode: .replay, matching: matching, replaysTimings: replaysTimings, repeatsLastAnswer: repeatsLastAnswer)
    }

    static func body(_ url: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:], body: String = "", on session: Session) async -> String? {
        await Call(url, method: method, session: session, headers: headers, body: Data(body.utf8), retry: .none).dataResponse()
            .response.map { String(decoding: $0.body, as: UTF8.self) }
    }

    @Test func theQueryInOrderOrInAnyOrder() async throws {
        let entries = [Self.entry("GET", "http://api.test/a?x=1&y=2", body: "xy")]
        let strict = try Self.cassette(entries).session(like: Session())
        #expect(await Self.body("http://api.test/a?y=2&x=1", on: strict) == nil)
        #expect(await Self.body("http://api.test/a?x=1&y=2", on: strict) == "xy")
        var matching = ReplayMatching()
        matching.ignoresQueryOrder = true
        let lenient = try Self.cassette(entries, matching: matching).session(like: Session())
        #expect(await Self.body("http://api.test/a?y=2&x=1", on: lenient) == "xy")
    }

    @Test func selectedHeadersTheBodyAndAClosure() async throws {
        var matching = ReplayMatching()
        matching.headers = ["Accept"]
        matching.body = true
        let entries = [
            Self.entry("POST", "http://api.test/u", body: "json", headers: [("Accept", "application/json")], requestBody: #"{"n":1,"token":"<redacted>"}"#),
            Self.entry("POST", "http://api.test/u", body: "text", headers: [("Accept", "text/plain")], requestBody: #"{"n":1,"token":"<redacted>"}"#),
        ]
        let cassette = try Self.cassette(entries, matching: matching)
        let session = cassette.session(like: Session())
        #expect(await Self.body("http://api.test/u", method: .post, headers: ["Accept": "text/plain"], body: #"{"n":1,"token":"abc"}"#, on: session) == "text")
        #expect(await Self.body("http://api.test/u", method: .post, headers: ["Accept": "application/json"], body: #"{"n":2,"token":"abc"}"#, on: session) == nil)
        #expect(cassette.mismatches.last?.differences.first?.contains("body of") == true)

        matching.custom = { request, _ in request.headers["X-Tenant"] == "7" }
        let custom = try Self.cassette(entries, matching: matching).session(like: Session())
        let sent = #"{"n":1,"token":"x"}"#
        #expect(await Self.body("http://api.test/u", method: .post, headers: ["Accept": "application/json"], body: sent, on: custom) == nil)
        #expect(await Self.body("http://api.test/u", method: .post, headers: ["Accept": "application/json", "X-Tenant": "7"], body: sent, on: custom) == "json")
    }

    @Test func identicalRequestsGetTheirAnswersInOrderAndTheLastOneAgainWhenAsked() async throws {
        let entries = [Self.entry("GET", "http://api.test/n", body: "one"), Self.entry("GET", "http://api.test/n", body: "two")]
        let strict = try Self.cassette(entries).session(like: Session())
        #expect(await Self.body("http://api.test/n", on: strict) == "one")
        #expect(await Self.body("http://api.test/n", on: strict) == "two")
        #expect(await Self.body("http://api.test/n", on: strict) == nil)
        let repeating = try Self.cassette(entries, repeatsLastAnswer: true).session(like: Session())
        let answers = [await Self.body("http://api.test/n", on: repeating), await Self.body("http://api.test/n", on: repeating),
                       await Self.body("http://api.test/n", on: repeating)]
        #expect(answers == ["one", "two", "two"])
    }

    @Test func timingsAreReplayedOnTheSessionsClockWhenAsked() async throws {
        let clock = ManualClock()
        var configuration = Session.Configuration()
        configuration.clock = clock
        let cassette = try Self.cassette([Self.entry("GET", "http://api.test/slow", body: "late", time: 2000)], replaysTimings: true)
        let session = cassette.session(like: Session(configuration: configuration))
        let answer = Task { await Self.body("http://api.test/slow", on: session) }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(1999))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        #expect(await answer.value == "late")
    }

    /// A download is recorded as it streams to its file, and replayed into a file byte for byte.
    @Test func aDownloadIsRecordedAndReplayed() async throws {
        let httpbin = try Httpbin.shared.get()
        let directory = try Paths.scratchDirectory("cassette-download")
        defer { Paths.removeTree(directory) }
        let path = directory + "/download.har"
        let url = httpbin.url("/bytes/20000?seed=11")
        for (mode, file) in [(Cassette.Mode.record, "live.bin"), (.replay, "replayed.bin")] {
            let cassette = try Cassette(path, mode: mode)
            _ = try await cassette.run(like: Session()) {
                try await Call(url, session: Session()).download(to: URL(fileURLWithPath: directory + "/" + file))
            }
        }
        let live = try #require(FileManager.default.contents(atPath: directory + "/live.bin"))
        #expect(live.count == 20000)
        #expect(FileManager.default.contents(atPath: directory + "/replayed.bin") == live)
    }
}

/// A recording made on one port, replayed by a test whose server took another: the miss says only the port
/// differs and that nothing was sent; `ignoresPort` matches it.
@Suite struct ReplayPortTests {
    @Test func aMissOnThePortAloneSaysSoAndThatNothingWasSentAndIgnoresPortMatchesIt() async throws {
        let entries = [ReplayMatchingTests.entry("GET", "http://127.0.0.1:41000/a?x=1", body: "recorded")]
        let strict = try ReplayMatchingTests.cassette(entries)
        let outcome = await Call("http://127.0.0.1:52000/a?x=1", session: strict.session(like: Session()), retry: .none).dataResponse()
        let error = try #require(outcome.error)
        #expect(!error.requestMayHaveArrived)
        #expect(error.description.contains("only the port differs") && error.description.contains("ReplayMatching.ignoresPort"))
        #expect(error.description.contains("(the request was not sent)") && !error.description.contains("may have arrived"))

        var matching = ReplayMatching()
        matching.ignoresPort = true
        let lenient = try ReplayMatchingTests.cassette(entries, matching: matching)
        #expect(await ReplayMatchingTests.body("http://127.0.0.1:52000/a?x=1", on: lenient.session(like: Session())) == "recorded")
        #expect(await ReplayMatchingTests.body("http://127.0.0.2:52000/a?x=1", on: lenient.session(like: Session())) == nil)
    }

    @Test(arguments: [
        ("http://h.test:8080/a", "http://h.test/a"), ("http://u:p@h.test:1/", "http://u:p@h.test/"), ("http://[::1]:9/x", "http://[::1]/x"),
        ("http://h.test/a:b", "http://h.test/a:b"), ("no-scheme", "no-scheme"),
    ])
    func thePortComesOutOfTheAuthorityAlone(url: String, expected: String) {
        #expect(String(ReplayMatching.withoutPort(Substring(url))) == expected)
    }
}
