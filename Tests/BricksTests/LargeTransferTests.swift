import BrickRequest
import Foundation
import TestServers
import Testing

/// A gigabyte down and half a gigabyte up, through the full brick path, each in a process of its own
/// (the transfer probe) so that its peak memory is its own and not that of the tests running beside it.
@Suite struct LargeTransferTests {
    @Test func aGigabyteDownloadGoesToDiskInBoundedMemory() async throws {
        let nginx = try Nginx.shared.get()
        let directory = try Paths.scratchDirectory("download-huge")
        defer { Paths.removeTree(directory) }
        let destination = directory + "/huge.bin"
        let outcome = try TransferProbe.run(["download", nginx.url("/huge.bin"), destination], in: directory)
        #expect(outcome.termination == .exited(0), "\(outcome.output)")
        #expect(outcome.fields["length"] as? Int == Nginx.hugeFileSize)
        #expect((try FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int) == Nginx.hugeFileSize)
        let baseline = try #require(outcome.fields["baselineKiB"] as? Int)
        let peak = try #require(outcome.fields["peakKiB"] as? Int)
        print("1 GiB download to disk (own process): RSS at start \(baseline >> 10) MiB, peak \(peak >> 10) MiB")
        #expect(peak - baseline < 32 << 10, "the body must not be held in memory")
    }

    @Test func aHalfGigabyteUploadReportsMonotonicProgressToItsTotal() async throws {
        let size = 512 << 20
        let path = try makeTestFile(size: size, seed: 512)
        defer { unlink(path) }
        let directory = try Paths.scratchDirectory("upload-huge")
        defer { Paths.removeTree(directory) }
        let outcome = try TransferProbe.run(["upload", try UploadSink.shared.get().url("/upload"), path], in: directory)
        #expect(outcome.termination == .exited(0), "\(outcome.output)")
        #expect(outcome.fields["status"] as? Int == 200)
        #expect(outcome.fields["increasing"] as? Bool == true)
        #expect(outcome.fields["last"] as? Int == size)
        #expect(outcome.fields["expected"] as? [Int] == [size])
        #expect((outcome.fields["events"] as? Int ?? 0) > 10)
        let answer = try #require(outcome.fields["answer"] as? [String: Any])
        #expect(answer["length"] as? Int == size)
        #expect(answer["sha256"] as? String == (try sha256(ofFile: path)))
        let baseline = try #require(outcome.fields["baselineKiB"] as? Int)
        let peak = try #require(outcome.fields["peakKiB"] as? Int)
        print("512 MiB upload from a file (own process): \(outcome.fields["events"] ?? 0) progress events, RSS at start \(baseline >> 10) MiB, peak \(peak >> 10) MiB")
        #expect(peak - baseline < 32 << 10, "the file must not be loaded into memory")
    }
}
