import Foundation
import Testing
import TestServers

/// A server that sends a 1 GiB message to a client with the default limits (16 MiB), in a process of its own
/// so that its memory is measured alone: a typed error, and memory bounded by the limit, whether the message
/// comes deflated (a bomb: about 1 MiB on the wire) or as it is (a frame whose header says 1 GiB).
@Suite(.serialized) struct WebSocketMemoryTests {
    static let gibibyte = 1 << 30

    @Test(arguments: ["compressed", "plain"])
    func aGibibyteMessageIsATypedErrorWithMemoryBounded(_ mode: String) async throws {
        let server = try WebSocketServer()
        defer { server.stop() }
        let scratch = try Paths.scratchDirectory("ws-memory")
        defer { Paths.removeTree(scratch) }
        let outcome = try await TransferProbe.run(["websocket-big", server.url("/big?size=\(Self.gibibyte)"), mode], in: scratch)
        #expect(outcome.fields["tooBig"] as? Bool == true, "\(outcome.output)")
        #expect(outcome.fields["received"] as? Int == 0)
        let baseline = try #require(outcome.fields["baselineKiB"] as? Int), peak = try #require(outcome.fields["peakKiB"] as? Int)
        // The limit (16 MiB) and the buffers around it; far from the 1 GiB the server sent. Under a sanitizer
        // (make sanitize) the probe's allocator keeps freed memory on purpose: the bound is the plain run's.
        let environment = ProcessInfo.processInfo.environment
        if environment["TSAN_OPTIONS"] == nil && environment["ASAN_OPTIONS"] == nil {
            #expect(peak - baseline < 96 * 1024, "peak \(peak) KiB against a baseline of \(baseline) KiB")
        }
    }
}
