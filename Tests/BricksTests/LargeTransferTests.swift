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
        let outcome = try await TransferProbe.run(["download", nginx.url("/huge.bin"), destination], in: directory)
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
        let outcome = try await TransferProbe.run(["upload", try UploadSink.shared.get().url("/upload"), path], in: directory)
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

    @Test func aSlowConsumerOfALargeBodyKeepsMemoryBounded() async throws {
        let directory = try Paths.scratchDirectory("slow-consumer")
        defer { Paths.removeTree(directory) }
        let outcome = try await TransferProbe.run(["slow", try Nginx.shared.get().url("/big.bin")], in: directory)
        #expect(outcome.termination == .exited(0), "\(outcome.output)")
        #expect(outcome.fields["received"] as? Int == Nginx.bigFileSize)
        let baseline = try #require(outcome.fields["baselineKiB"] as? Int)
        let peak = try #require(outcome.fields["peakKiB"] as? Int)
        print("slow consumer of 256 MiB (own process): \(outcome.fields["chunks"] ?? 0) chunks, RSS at start \(baseline >> 10) MiB, peak \(peak >> 10) MiB")
        #expect(peak - baseline < 32 << 10, "the transfer must pause while the consumer is behind")
    }

    @Test func aStalledConsumerOfACompressedBombHoldsCompressedBytesNotTheirExpansion() async throws {
        let directory = try Paths.scratchDirectory("stalled-bomb")
        defer { Paths.removeTree(directory) }
        // 100 MiB of zeros gzipped to ~100 KiB: what waits while the consumer sleeps is bounded by the stream
        // buffer (1 MiB), not by libcurl's buffer for a paused transfer (64 MiB, of decompressed bytes).
        let outcome = try await TransferProbe.run(["stalled", try Nginx.shared.get().url("/bomb")], in: directory)
        #expect(outcome.termination == .exited(0), "\(outcome.output)")
        #expect(outcome.fields["outcome"] as? String == "responseTooLarge", "the ratio still ends it: \(outcome.fields)")
        let baseline = try #require(outcome.fields["baselineKiB"] as? Int)
        let peak = try #require(outcome.fields["peakKiB"] as? Int)
        print("stalled consumer of a gzip bomb (own process): RSS at start \(baseline >> 10) MiB, peak \(peak >> 10) MiB")
        // The bound of the slow consumer above: ThreadSanitizer's shadow memory doubles what a plain run shows
        // (+9 MiB plain, +16 MiB under TSan; +129 MiB when libcurl decompressed into its paused buffer).
        #expect(peak - baseline < 32 << 10, "peak \(peak) KiB against \(baseline) KiB at start")
    }

    @Test func a200MBMultipartFileIsStreamedFromDiskInBoundedMemory() async throws {
        let size = 200 << 20
        let path = try makeTestFile(size: size, seed: 200)
        defer { unlink(path) }
        let directory = try Paths.scratchDirectory("multipart-huge")
        defer { Paths.removeTree(directory) }
        let outcome = try await TransferProbe.run(["multipart", try UploadSink.shared.get().url("/upload"), path], in: directory)
        #expect(outcome.termination == .exited(0), "\(outcome.output)")
        let answer = try SinkAnswer(json: JSONSerialization.data(withJSONObject: try #require(outcome.fields["answer"])))
        let parts = try #require(answer.parts)
        #expect(answer.complete)
        #expect(parts.map(\.name) == ["label", "archive"])
        #expect(parts[0].bytes == Data("nightly".utf8))
        #expect(parts[1].filename == URL(fileURLWithPath: path).lastPathComponent)
        #expect(parts[1].contentType == "application/x-tar")
        #expect(parts[1].length == size)
        #expect(parts[1].sha256 == (try sha256(ofFile: path)))
        #expect(answer.contentLength == String(answer.length))
        let baseline = try #require(outcome.fields["baselineKiB"] as? Int)
        let peak = try #require(outcome.fields["peakKiB"] as? Int)
        print("200 MiB multipart upload (own process): RSS at start \(baseline >> 10) MiB, peak \(peak >> 10) MiB")
        #expect(peak - baseline < 32 << 10, "the file must not be loaded into memory")
    }
}
