@testable import BrickCassette
import BrickRequest
import BrickTesting
import Foundation
import Testing
import TestServers

/// What replay refuses, and what a recording that cannot be written does: each a typed error that names
/// what is wrong, with nothing sent and nothing half-written.
@Suite struct CassetteFileTests {
    @Test func anUnmatchedRequestNamesTheNearestEntryAndSendsNothing() async throws {
        let faults = try FaultServer(keepAlive: true)
        defer { faults.stop() }
        let path = try scratchCassette("unmatched.har")
        let recording = try Cassette(path, mode: .record)
        let first = await Call(faults.baseURL + "/ok?key=unmatched&page=1", session: recording.session(like: Session())).dataResponse()
        #expect(first.response?.head.status == 200)
        try recording.save()
        #expect(faults.count("unmatched") == 1)

        let replay = try Cassette(path, mode: .replay)
        let session = replay.session(like: Session())
        let other = await Call(faults.baseURL + "/ok?key=unmatched&page=2", session: session, retry: .none).dataResponse()
        let error = try #require(failure(of: other))
        #expect(error.kind == TransportError.Kind.notRecorded)
        #expect(error.message.contains("nearest is entry 0 (GET"))
        #expect(error.message.contains(#"query item "page" is not as recorded at position 2"#))
        let posted = await Call(faults.baseURL + "/ok?key=unmatched&page=1", method: .post, session: session, retry: .none).dataResponse()
        #expect(failure(of: posted)?.message.contains("method is POST, recorded GET") == true)
        // The recorded request is answered once; a second one finds its answer used.
        #expect(await Call(faults.baseURL + "/ok?key=unmatched&page=1", session: session, retry: .none).dataResponse().response?.body == Data("ok".utf8))
        let again = await Call(faults.baseURL + "/ok?key=unmatched&page=1", session: session, retry: .none).dataResponse()
        #expect(failure(of: again)?.message.contains("were used") == true)
        #expect(replay.mismatches.map(\.nearestEntry) == [0, 0, 0])
        #expect(faults.count("unmatched") == 1)
    }

    func failure(of response: DataResponse<Data>) -> TransportError? {
        guard case .failure(let error) = response.result else { return nil }
        return error.transportError
    }

    /// A minimal cassette, as text, for the refusals below.
    static func cassette(status: String = "200", text: String = #""ok""#, size: String = "2", encoding: String = "") -> String {
        let entry = """
            {"startedDateTime": "2026-11-27T10:00:00.000Z", "time": 1, "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0},
             "request": {"method": "GET", "url": "http://api.test/a", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [], "queryString": [], "headersSize": -1, "bodySize": 0},
             "response": {"status": \(status), "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [], "redirectURL": "", "headersSize": -1, "bodySize": 2,
                          "content": {"size": \(size), "mimeType": "text/plain", "text": \(text)\(encoding)}}}
            """
        return #"{"log": {"version": "1.2", "creator": {"name": "hand", "version": "1"}, "pages": [], "entries": [\#(entry), \#(entry)]}}"#
    }

    static func refusal(_ text: String, maxFileSize: Int = 1 << 20) throws -> CassetteError? {
        let path = try scratchCassette("bad.har")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try Cassette(path, mode: .replay, maxFileSize: maxFileSize)
            return nil
        } catch {
            return error
        }
    }

    @Test func aBadCassetteIsRefusedNamingTheEntryAndTheField() throws {
        #expect(try Self.refusal(Self.cassette()) == nil)
        #expect(try Self.refusal("{\"log\": ")?.kind == .notJSON)
        let missing = try #require(try Self.refusal(Self.cassette().replacing(#""status": 200, "#, with: "", maxReplacements: 1)))
        #expect(missing.kind == .missingField)
        #expect(missing.entry == 0)
        #expect(missing.field == "response.status")
        let wrongType = try #require(try Self.refusal(Self.cassette(status: #""200""#)))
        #expect([wrongType.kind, wrongType.entry, wrongType.field] as [AnyHashable?] == [CassetteError.Kind.invalidField, 0, "response.status"])
        let notStatus = try #require(try Self.refusal(Self.cassette(status: "5000")))
        #expect([notStatus.kind, notStatus.field] as [AnyHashable?] == [CassetteError.Kind.invalidField, "response.status"])
        let base64 = try #require(try Self.refusal(Self.cassette(text: #""b2s*!""#, encoding: #", "encoding": "base64""#)))
        #expect([base64.kind, base64.entry, base64.field] as [AnyHashable?] == [CassetteError.Kind.invalidField, 0, "response.content.text"])
        let size = try #require(try Self.refusal(Self.cassette(size: "7")))
        #expect([size.kind, size.field] as [AnyHashable?] == [CassetteError.Kind.invalidField, "response.content.size"])
        #expect(try Self.refusal(Self.cassette(), maxFileSize: 100)?.kind == .tooLarge)
        let overflowing = Self.cassette(size: "9223372036854775807").replacing(#""mimeType": "text/plain""#, with: #""compression": 1, "mimeType": "text/plain""#)
        #expect(try Self.refusal(overflowing)?.field == "response.content.size")
        let smuggled = Self.cassette().replacing(#""headers": [], "cookies": [], "redirectURL""#, with: #""headers": [{"name": "X", "value": "a\r\nSet-Cookie: b=c"}], "cookies": [], "redirectURL""#)
        let field = try #require(try Self.refusal(smuggled))
        #expect([field.kind, field.entry, field.field] as [AnyHashable?] == [CassetteError.Kind.invalidField, 0, "response.headers[0]"])
        #expect(throws: CassetteError.self) { try Cassette(try scratchCassette("absent.har"), mode: .replay) }
    }

    @Test func aRecordingThatCannotBeWrittenFailsAndLeavesNothingHalfWritten() async throws {
        let faults = try FaultServer(keepAlive: true)
        defer { faults.stop() }
        let directory = try Paths.scratchDirectory("unwritable")
        // A directory stands where the file would go: the rename fails, after the whole file was written.
        try FileManager.default.createDirectory(atPath: directory + "/taken.har", withIntermediateDirectories: false)
        // A regular file stands where its directory would be.
        try Data("x".utf8).write(to: URL(fileURLWithPath: directory + "/file"))
        for path in [directory + "/taken.har", directory + "/file/cassette.har"] {
            let cassette = try Cassette(path, mode: .record)
            await #expect(throws: CassetteError.self) {
                try await cassette.run(like: Session()) { await Call(faults.baseURL + "/ok?key=unwritable", session: Session()).dataResponse() }
            }
            #expect(throws: CassetteError.self) { try cassette.save() }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["file", "taken.har"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/taken.har") == [])
        #expect(faults.count("unwritable") == 2)
    }

    @Test func aBodyThatThrowsLeavesTheCassetteAsItWas() async throws {
        let faults = try FaultServer(keepAlive: true)
        defer { faults.stop() }
        let path = try scratchCassette("kept.har")
        try Data(Self.cassette().utf8).write(to: URL(fileURLWithPath: path))
        struct Failed: Error {}
        await #expect(throws: Failed.self) {
            try await Cassette(path, mode: .record).run(like: Session()) {
                _ = await Call(faults.baseURL + "/ok?key=thrown", session: Session()).dataResponse()
                throw Failed()
            }
        }
        #expect(FileManager.default.contents(atPath: path) == Data(Self.cassette().utf8))
    }

    @Test func theModesAndTheEnvironmentsOverride() async throws {
        #expect(try Cassette.override(of: .once, environment: nil, path: "x") == .once)
        #expect(try Cassette.override(of: .replay, environment: "all", path: "x") == .record)
        #expect(try Cassette.override(of: .record, environment: "none", path: "x") == .replay)
        #expect(try Cassette.override(of: .record, environment: "once", path: "x") == .once)
        #expect(throws: CassetteError(.invalidMode, path: "x", message: #"BRICK_RECORD="sometimes" names no mode (all, none, once)"#)) {
            try Cassette.override(of: .once, environment: "sometimes", path: "x")
        }

        let faults = try FaultServer(keepAlive: true)
        defer { faults.stop() }
        let path = try scratchCassette("once.har")
        let call = { await Call(faults.baseURL + "/ok?key=once", session: Session()).dataResponse().response?.body }
        let recording = try Cassette(path, mode: .once)
        #expect(recording.isRecording)
        #expect(try await recording.run(like: Session(), call) == Data("ok".utf8))
        let replaying = try Cassette(path, mode: .once)
        #expect(!replaying.isRecording)
        #expect(try await replaying.run(like: Session(), call) == Data("ok".utf8))
        #expect(faults.count("once") == 1)
    }

    /// The trait, driven as Swift Testing drives it: a test recorded, then the same test replayed.
    @Test func theTraitRecordsAndReplaysATest() async throws {
        let faults = try FaultServer(keepAlive: true)
        defer { faults.stop() }
        let path = try scratchCassette("trait.har")
        let test = try #require(Test.current)
        for mode in [Cassette.Mode.record, .replay] {
            let trait: CassetteTrait = .cassette(path, mode: mode, like: Session())
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                #expect(Session.current != nil)
                let body = await Call(faults.baseURL + "/ok?key=trait", session: Session()).dataResponse().response?.body
                #expect(body == Data("ok".utf8))
            }
        }
        #expect(faults.count("trait") == 1)
        #expect(try Cassette(path, mode: .replay).entries.count == 1)
    }
}
