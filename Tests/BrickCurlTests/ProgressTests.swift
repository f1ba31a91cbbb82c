import BrickCurl
import Foundation
import LoopbackServer
import TestServers
import Testing

/// Upload and download progress reported by streamed transfers.
@Suite struct ProgressTests {
    /// Every event of a streamed transfer, in order.
    func events(of request: TransportRequest) async throws -> [TransportEvent] {
        var events: [TransportEvent] = []
        for try await event in try transport().makeTransfer(for: request).events() { events.append(event) }
        return events
    }

    /// The server takes 1 MiB of the body and the rest only once the test saw the first progress report, so
    /// that a report during the upload is certain however busy the machine is (reports are coalesced behind
    /// a slow consumer, and this test once saw only the final one).
    @Test func aFileUploadReportsMonotonicProgressEndingAtItsLength() async throws {
        let size = 32 << 20
        let path = try makeTestFile(size: size, seed: 31)
        defer { unlink(path) }
        let server = try FaultServer()
        defer { server.stop() }
        var uploads: [TransferProgress] = []
        var body = Data()
        let request = TransportRequest(method: .put, url: server.baseURL + "/gated-upload?key=up", body: .file(path: path))
        for try await event in try transport().makeTransfer(for: request).events() {
            switch event {
            case .uploadProgress(let progress):
                if uploads.isEmpty { server.openGate("up") }
                uploads.append(progress)
            case .body(let chunk): body.append(chunk)
            default: break
            }
        }
        #expect(uploads.count >= 2)
        #expect(uploads.first.map { $0.completed < Int64(size) } == true)
        #expect(zip(uploads, uploads.dropFirst()).allSatisfy { $0.completed < $1.completed })
        #expect(uploads.allSatisfy { $0.expected == Int64(size) })
        #expect(uploads.last?.completed == Int64(size))
        #expect(String(decoding: body, as: UTF8.self) == "\(size)")
    }

    @Test func aDownloadReportsProgressAgainstContentLengthAfterTheHead() async throws {
        let events = try await events(of: TransportRequest(url: try httpbin().url("/range/100000?chunk_size=5000&duration=0")))
        let kinds = events.map(\.kind)
        #expect(kinds.first == "head")
        #expect(kinds.last == "end")
        #expect(!kinds.contains("upload"))
        let downloads = events.compactMap { event -> TransferProgress? in
            if case .downloadProgress(let progress) = event { progress } else { nil }
        }
        #expect(zip(downloads, downloads.dropFirst()).allSatisfy { $0.completed < $1.completed })
        #expect(downloads.allSatisfy { $0.expected == 100_000 })
        #expect(downloads.last?.completed == 100_000 && downloads.last?.expected == 100_000)
        #expect(downloads.last?.fractionCompleted == 1)
        // libcurl's average rate comes with every report; with the total known, so does the time left.
        #expect(downloads.allSatisfy { $0.bytesPerSecond != nil && $0.estimatedTimeRemaining != nil })
        #expect(downloads.last?.estimatedTimeRemaining == .zero)
    }

    @Test func aChunkedDownloadHasNoExpectedLength() async throws {
        let events = try await events(of: TransportRequest(url: try httpbin().url("/stream-bytes/50000?chunk_size=5000&seed=3")))
        let downloads = events.compactMap { event -> TransferProgress? in
            if case .downloadProgress(let progress) = event { progress } else { nil }
        }
        #expect(downloads.last?.completed == 50_000 && downloads.last?.expected == nil)
        #expect(downloads.allSatisfy { $0.estimatedTimeRemaining == nil })
        #expect(downloads.allSatisfy { $0.fractionCompleted == nil })
    }

    @Test func progressReportsDoNotPileUpBehindASlowConsumer() async throws {
        let received = Countdown()
        let server = try LoopbackServer { request in
            received.increment()
            return .text("\(request.body.count)")
        }
        defer { server.stop() }
        let path = try makeTestFile(size: 8 << 20, seed: 32)
        defer { unlink(path) }
        let stream = try transport().makeTransfer(for: TransportRequest(
            method: .put, url: server.baseURL + "/put", body: .file(path: path))).events()
        // Nothing is read until the server has the whole body: every upload report meanwhile is merged into one.
        await received.wait(for: 1)
        var kinds: [String] = []
        for try await event in stream { kinds.append(event.kind) }
        #expect(kinds.filter { $0 == "upload" }.count == 1)
        #expect(kinds.first == "upload")
        #expect(kinds.last == "end")
    }
}

extension TransportEvent {
    /// A one-word name for the event, for order checks.
    var kind: String {
        switch self {
        case .head: "head"
        case .body: "body"
        case .uploadProgress: "upload"
        case .downloadProgress: "download"
        case .end: "end"
        }
    }
}
