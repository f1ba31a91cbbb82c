import BrickCassette
import BrickRequest
import Foundation
import Testing
import TestServers

/// A cassette recorded against real servers (httpbin, the fault server) replays every answer byte for byte
/// with no network, and opens in the tools people read HAR files with.
@Suite struct RecordAndReplayTests {
    /// The calls the README's request class stands for: a GET with a query, a POST with a JSON body, a
    /// redirect, a 503 then a 200 under the soft retry rules, a gzip body, a binary body, and a stream.
    static func calls(httpbin: Httpbin, faults: FaultServer, key: String, session: Session) async throws -> [Answer] {
        var answers: [Answer] = []
        for call in [
            Call(httpbin.url("/get?userID=100&lang=en"), session: session),
            Call(httpbin.url("/post"), method: .post, session: session, body: Data(#"{"name":"Ada","age":36}"#.utf8)),
            Call(httpbin.url("/redirect/2"), session: session),
            Call(faults.baseURL + "/status?code=503&retry_after=0&times=1&key=" + key, session: session),
            Call(httpbin.url("/gzip"), session: session),
            Call(httpbin.url("/bytes/512?seed=7"), session: session),
        ] {
            answers.append(Answer(await call.dataResponse()))
        }
        var streamed = Data()
        var status = 0
        for try await event in Call(httpbin.url("/stream-bytes/4096?seed=3&chunk_size=512"), session: session).stream() {
            switch event {
            case .head(let head): status = head.status
            case .body(let piece): streamed.append(piece)
            default: break
            }
        }
        answers.append(Answer(status: status, body: streamed))
        return answers
    }

    @Test func aRecordingReplaysByteForByteWithNoNetwork() async throws {
        let httpbin = try Httpbin.shared.get()
        let faults = try FaultServer(keepAlive: true)
        defer { faults.stop() }
        let path = try scratchCassette("readme.har")
        let key = "record-\(UInt32.random(in: 0...UInt32.max))"
        let clock = ContinuousClock()
        let recordingStart = clock.now
        let recording = try Cassette(path, mode: .record)
        let live = try await Self.calls(httpbin: httpbin, faults: faults, key: key, session: recording.session(like: Session()))
        try recording.save()
        let recordingTime = recordingStart.duration(to: clock.now)
        #expect(live.map(\.status) == [200, 200, 200, 200, 200, 200, 200])
        #expect(faults.count(key) == 2)

        // One entry per attempt and per redirect hop: 1 + 1 + 3 + 2 + 1 + 1 + 1.
        let written = try #require(FileManager.default.contents(atPath: path))
        let json = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect(HARStructure.problems(in: json) == [])
        let entries = try Cassette(path, mode: .replay).entries
        #expect(entries.count == 10)
        #expect(entries.map(\.response.status) == [200, 200, 302, 302, 200, 503, 200, 200, 200, 200])
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)

        let replayStart = clock.now
        let replay = try Cassette(path, mode: .replay)
        let replayed = try await Self.calls(httpbin: httpbin, faults: faults, key: key, session: replay.session(like: Session()))
        let replayTime = replayStart.duration(to: clock.now)
        #expect(replayed == live)
        #expect(faults.count(key) == 2)
        #expect(replay.mismatches.isEmpty)
        // Figures for the record, never asserted.
        print("CASSETTE-FIGURE size_bytes=\(written.count) entries=\(entries.count) record=\(recordingTime) replay=\(replayTime)")
    }

    @Test func theToolsPeopleUseReadTheRecording() async throws {
        let httpbin = try Httpbin.shared.get()
        let faults = try FaultServer(keepAlive: true)
        defer { faults.stop() }
        let path = try scratchCassette("tools.har")
        let recording = try Cassette(path, mode: .record)
        _ = try await Self.calls(httpbin: httpbin, faults: faults, key: "tools", session: recording.session(like: Session()))
        try recording.save()
        let output = try Python.run(script: Paths.repository + "/Tests/BrickCassetteTests/har-tools.py", arguments: [path])
        let seen = try #require(try JSONSerialization.jsonObject(with: output) as? [String: [[String: Any]]])
        let entries = recording.entries
        for tool in ["haralyzer", "mitmproxy"] {
            let read = try #require(seen[tool])
            #expect(read.count == entries.count, "\(tool)")
            for (entry, got) in zip(entries, read) {
                #expect(got["method"] as? String == entry.request.method, "\(tool)")
                #expect(got["url"] as? String == entry.request.url, "\(tool)")
                #expect(got["status"] as? Int == entry.response.status, "\(tool)")
                let body = (got["body"] as? String).flatMap { Data(base64Encoded: $0) }
                #expect(body == (try Self.body(of: entry)), "\(tool): \(entry.request.url)")
            }
        }
    }

    static func body(of entry: HAR.Entry) throws -> Data {
        let text = entry.response.content.text ?? ""
        return entry.response.content.encoding == "base64" ? try #require(Data(base64Encoded: text)) : Data(text.utf8)
    }
}

extension Answer {
    init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}
