@testable import BrickCore
import BrickTesting
import Foundation
import Testing

/// What an interrupted download tells of its next run: read from the record beside its partial file.
struct ResumeOutlookTests {
    @Test func acceptRangesIsReadAsTheServerSaidIt() {
        #expect(ResumeRecord.ranges(of: ResponseHead(status: 200, headers: ["Accept-Ranges": "bytes"])) == true)
        #expect(ResumeRecord.ranges(of: ResponseHead(status: 200, headers: ["Accept-Ranges": " Bytes , other"])) == true)
        #expect(ResumeRecord.ranges(of: ResponseHead(status: 200, headers: ["Accept-Ranges": "none"])) == false)
        #expect(ResumeRecord.ranges(of: ResponseHead(status: 200, headers: ["Accept-Ranges": "pages"])) == nil)
        #expect(ResumeRecord.ranges(of: ResponseHead(status: 200)) == nil)
    }

    @Test func theOutlookComesFromTheRecordBesideThePartialFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resume-outlook-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.path + "/file.bin"
        #expect(ResumeOutlook.of(destination: destination) == .noValidator)
        for (ranges, outlook) in [(true, ResumeOutlook.offered), (false, .refused), (nil, .unsaid)] as [(Bool?, ResumeOutlook)] {
            try ResumeRecord(url: "https://a.test/f", validator: "\"v1\"", length: 10, ranges: ranges).write(to: destination + ".part.json")
            #expect(ResumeOutlook.of(destination: destination) == outlook)
        }
        // A record written before it kept ranges reads as unsaid.
        try Data(#"{"url":"https://a.test/f","validator":"\"v1\"","length":10}"#.utf8).write(to: URL(fileURLWithPath: destination + ".part.json"))
        #expect(ResumeOutlook.of(destination: destination) == .unsaid)
        #expect(ResumeOutlook.offered.words.contains("run the same command to resume"))
        #expect(ResumeOutlook.noValidator.words.contains("starts again"))
    }
}
