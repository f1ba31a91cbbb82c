import BrickCassette
import BrickRequest
import Foundation
import Testing
import TestServers

/// No secret of a request or of its response is written to a cassette unless the test opts in, and the
/// redacted cassette still answers the same requests.
@Suite struct RedactionTests {
    static let secrets = ["tok-ABCD-1234", "cookie-VALUE-987", "setcookie-XYZ-55", "pw-SECRET-42", "hunter2-SECRET", "qtok-777-SECRET"]

    static func calls(_ httpbin: Httpbin, session: Session) async -> [Answer] {
        let password = "http://ada:pw-SECRET-42@127.0.0.1:\(httpbin.port)/basic-auth/ada/pw-SECRET-42"
        var answers: [Answer] = []
        for call in [
            Call(httpbin.url("/bearer"), session: session, headers: ["Authorization": "Bearer tok-ABCD-1234"]),
            Call(httpbin.url("/cookies"), session: session, headers: ["Cookie": "sid=cookie-VALUE-987; theme=dark"]),
            Call(httpbin.url("/cookies/set?flavour=setcookie-XYZ-55"), session: session),
            Call(password, session: session),
            Call(httpbin.url("/post"), method: .post, session: session, body: Data(#"{"user":"ada","password":"hunter2-SECRET"}"#.utf8)),
            Call(httpbin.url("/get?access_token=qtok-777-SECRET&page=2"), session: session),
        ] {
            answers.append(Answer(await call.dataResponse()))
        }
        return answers
    }

    @Test func noSecretIsWrittenUnlessOptedIn() async throws {
        let httpbin = try Httpbin.shared.get()
        let path = try scratchCassette("secrets.har")
        let recording = try Cassette(path, mode: .record)
        let live = await Self.calls(httpbin, session: recording.session(like: Session()))
        try recording.save()
        #expect(live.map(\.status) == [200, 200, 200, 200, 200, 200])
        // The server saw every secret: each is in the answers it echoed.
        let echoed = String(decoding: live.flatMap(\.body), as: UTF8.self)
        #expect(Self.secrets.filter { !echoed.contains($0) } == ["setcookie-XYZ-55", "pw-SECRET-42"])
        let text = String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
        #expect(Self.secrets.filter { text.contains($0) } == [])
        #expect(text.contains("Bearer <redacted>"))
        #expect(text.contains("sid=<redacted>; theme=<redacted>"))

        let replay = try Cassette(path, mode: .replay)
        let replayed = await Self.calls(httpbin, session: replay.session(like: Session()))
        #expect(replay.mismatches.map(\.description) == [])
        #expect(replayed.map(\.status) == live.map(\.status))
    }

    @Test func optingOutWritesTheSecretsAsTheyWere() async throws {
        let httpbin = try Httpbin.shared.get()
        let path = try scratchCassette("kept.har")
        let recording = try Cassette(path, mode: .record, redaction: .none)
        _ = await Self.calls(httpbin, session: recording.session(like: Session()))
        try recording.save()
        let text = String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
        #expect(Self.secrets.filter { !text.contains($0) } == [])

        // Per field: the bearer token kept. A value that is secret in one place is scrubbed from every
        // other (httpbin echoes the token as a `token` member), so both places are opted out.
        var redaction = CassetteRedaction()
        redaction.keepHeaders(["Authorization"])
        redaction.keepJSONFields(["token"])
        let partial = try Cassette(try scratchCassette("partial.har"), mode: .record, redaction: redaction)
        _ = await Self.calls(httpbin, session: partial.session(like: Session()))
        try partial.save()
        let partialText = String(decoding: try #require(FileManager.default.contents(atPath: partial.path)), as: UTF8.self)
        #expect(Self.secrets.filter { partialText.contains($0) } == ["tok-ABCD-1234"])
    }
}
