import BrickRequest
import Foundation
import TestServers
import Testing

/// The version the library reports is the one its changelog releases last.
@Suite struct VersionTests {
    @Test func sessionVersionIsTheChangelogsNewest() throws {
        let changelog = try String(contentsOfFile: Paths.repository + "/CHANGELOG.md", encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }
        let version = newest?.dropFirst(3).split(separator: " ").first.map(String.init)
        #expect(version == Session.version)
        #expect(Session.Configuration().headers["User-Agent"] == "BrickRequest/\(Session.version)")
    }
}
