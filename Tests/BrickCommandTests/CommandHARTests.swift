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

    /// What `--verbose` hides, `--har` does not write: in one run, every value the heads on standard error
    /// show as `<redacted>` (a field named for a credential, one named for a secret in the answer, an OAuth
    /// code in a `Location`) is absent from the HAR file.
    @Test func theHARFileNeverWritesWhatVerboseHides() async throws {
        let server = try httpbin()
        let directory = try Paths.scratchDirectory("har")
        defer { Paths.removeTree(directory) }
        let path = directory + "/verbose.har"
        let values = ["V1-custom-credential", "V2-custom-secret", "V3-oauth-code"]
        let target = server.url("/response-headers?X-Custom-Secret=\(values[1])&Location=/get%3Fcode%3D\(values[2])")
        let call = try await Brick.run("-v", "--har", path, target, "X-Custom-Credential:\(values[0])")
        #expect(call.status == 0, "\(call.error)")
        let hidden = call.error.split(separator: "\n").filter { $0.contains("<redacted>") }
        #expect(hidden.contains { $0.hasPrefix("> X-Custom-Credential:") })
        #expect(hidden.contains { $0.hasPrefix("< X-Custom-Secret:") })
        #expect(hidden.contains { $0.hasPrefix("< Location:") })
        #expect(!call.error.contains(values[0]) && !call.error.contains(values[1]))  // the request line's query too
        let text = String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
        #expect(values.filter { text.contains($0) } == [])
    }
}
