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

/// Figures in the pages that a check can keep true: every `BrickRequest/x.y.z` a page shows is the version
/// sent.
@Suite struct PageFigureTests {
    @Test func everyUserAgentAPageShowsIsTheVersionSent() throws {
        let pages = ["README.md"] + (try FileManager.default.contentsOfDirectory(atPath: Paths.repository + "/Docs"))
            .filter { $0.hasSuffix(".md") }.map { "Docs/" + $0 }
        var shown: [String: String] = [:]
        for page in pages {
            let text = try String(contentsOfFile: Paths.repository + "/" + page, encoding: .utf8)
            for match in text.matches(of: /BrickRequest\/(\d+\.\d+\.\d+)/) { shown[page + " " + match.output.1] = String(match.output.1) }
        }
        #expect(!shown.isEmpty)
        #expect(shown.filter { $0.value != Session.version }.isEmpty, "pages showing another version: \(shown.keys.sorted())")
    }
}
