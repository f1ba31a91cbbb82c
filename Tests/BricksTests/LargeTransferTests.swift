import BrickRequest
import Foundation
import Synchronization
import TestServers
import Testing

/// A PUT of a file, as it is on disk.
final class PutFile: Component, PUTRequestType, APISessionRequestType, AbsoluteURLType, RawBodyType {
    let path: String
    let rawBody: RequestBody
    init(url: String, file: String) {
        path = url
        rawBody = .file(path: file)
        super.init()
    }
}

/// Samples the process's resident memory every 5 ms while `work` runs; returns its result and the peak
/// growth over the resident memory before it started.
func peakMemoryGrowth<T>(during work: () async throws -> T) async rethrows -> (T, growth: Int, before: Int) {
    let before = residentMemoryBytes()
    let peak = Mutex(before)
    let sampler = Task.detached {
        while !Task.isCancelled {
            let now = residentMemoryBytes()
            peak.withLock { $0 = max($0, now) }
            try? await Task.sleep(for: .milliseconds(5))  // a sampling period, not a synchronisation
        }
    }
    defer { sampler.cancel() }
    let result = try await work()
    return (result, peak.withLock { $0 } - before, before)
}

/// A gigabyte down and half a gigabyte up, through the full brick path, in bounded memory.
@Suite(.serialized) struct LargeTransferTests {
    @Test func aGigabyteDownloadGoesToDiskInBoundedMemory() async throws {
        let nginx = try Nginx.shared.get()
        let directory = try Paths.scratchDirectory("download-huge")
        defer { Paths.removeTree(directory) }
        let destination = URL(fileURLWithPath: directory + "/huge.bin")
        let last = Mutex<TransferProgress?>(nil)
        let (result, growth, before) = try await peakMemoryGrowth {
            try await FetchFile(nginx.url("/huge.bin")).download(to: destination) { progress in last.withLock { $0 = progress } }
        }
        let size = Int64(Nginx.hugeFileSize)
        #expect(result.length == size)
        #expect((try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int64) == size)
        #expect(last.withLock { $0 } == TransferProgress(completed: size, expected: size))
        print("1 GiB download to disk: RSS before \(before >> 20) MiB, peak growth \(growth >> 20) MiB")
        #expect(growth < 48 << 20, "the body must not be held in memory")
    }

    @Test func aHalfGigabyteUploadReportsMonotonicProgressToItsTotal() async throws {
        let size = 512 << 20
        let path = try makeTestFile(size: size, seed: 512)
        defer { unlink(path) }
        let sink = try UploadSink.shared.get()
        let ((progress, body), growth, before) = try await peakMemoryGrowth {
            var progress: [TransferProgress] = []
            var body = Data()
            for try await event in PutFile(url: sink.url("/upload"), file: path).stream() {
                switch event {
                case .uploadProgress(let report): progress.append(report)
                case .body(let chunk): body.append(chunk)
                default: break
                }
            }
            return (progress, body)
        }
        let answer = try SinkAnswer(json: body)
        #expect(answer.length == size)
        #expect(answer.sha256 == (try sha256(ofFile: path)))
        #expect(progress.count > 10)
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.completed < $1.completed })
        #expect(progress.allSatisfy { $0.expected == Int64(size) })
        #expect(progress.last?.completed == Int64(size))
        print("512 MiB upload from a file: \(progress.count) progress events, RSS before \(before >> 20) MiB, peak growth \(growth >> 20) MiB")
        #expect(growth < 48 << 20, "the file must not be loaded into memory")
    }
}
