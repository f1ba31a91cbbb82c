import Foundation
import Testing
import TestServers

/// `--har FILE`: the exchanges of one command (each redirect hop an entry) in a HAR file, owner-only, with
/// the secrets redacted unless `--har-secrets` keeps them.
@Suite struct CommandHARTests {
    func entries(_ path: String) throws -> [[String: Any]] {
        let data = try #require(FileManager.default.contents(atPath: path))
        let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (file["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
    }

    @Test func theCommandWritesItsExchangesWithTheSecretsRedacted() async throws {
        let server = try httpbin()
        let directory = try Paths.scratchDirectory("har")
        defer { Paths.removeTree(directory) }
        let path = directory + "/call.har"
        let call = try await Brick.run("--har", path, server.url("/redirect-to?url=/bearer"), "Authorization:Bearer tok-HAR-4321")
        #expect(call.status == 0, "\(call.error)")
        let entries = try entries(path)
        #expect(entries.map { ($0["response"] as? [String: Any])?["status"] as? Int } == [302, 200])
        #expect(try mode(of: path) == 0o600)
        let text = String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
        #expect(!text.contains("tok-HAR-4321"))
        #expect(text.contains("Bearer <redacted>"))

        let kept = try await Brick.run("--har", path, "--har-secrets", server.url("/bearer"), "Authorization:Bearer tok-HAR-4321")
        #expect(kept.status == 0)
        #expect(String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self).contains("tok-HAR-4321"))
    }

    @Test func aHARFileThatCannotBeWrittenIsAnError() async throws {
        let server = try httpbin()
        let directory = try Paths.scratchDirectory("har")
        defer { Paths.removeTree(directory) }
        try FileManager.default.createDirectory(atPath: directory + "/taken.har", withIntermediateDirectories: false)
        let call = try await Brick.run("--har", directory + "/taken.har", server.url("/get"))
        #expect(call.status == 1)
        #expect(call.error.contains("cassette \(directory)/taken.har: "))
    }
}
