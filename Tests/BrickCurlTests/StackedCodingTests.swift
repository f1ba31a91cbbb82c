@testable import BrickCurl
import Foundation
import TestServers
import Testing

/// Content codings stacked on codings (`deflate, gzip, gzip`), ~1 KB on the wire each, from nginx: bytes
/// hidden after the end of an inner coding are damage; an inner layer that inflates hundreds of MiB its
/// next layer swallows is stopped by the ratio and the cap as the body would be; and decoding it never
/// keeps the engine in one callback (timeouts fire, other transfers move). Each on a fresh connection and on
/// a kept-alive one.
@Suite struct StackedCodingTests {
    /// A transport of its own: these bodies keep an engine busy for a while when nothing stops them.
    let own: CurlTransport
    init() throws { own = try #require(CurlTransport()) }

    /// Runs `check` twice: first on a fresh connection, then after a small GET left one to reuse.
    func onFreshAndKeptConnections(_ check: () async throws -> Void) async throws {
        try await check()
        _ = try await send(try nginx().url("/small"), through: own)
        try await check()
    }

    @Test func bytesAfterTheEndOfAnInnerCodingAreDamage() async throws {
        try await onFreshAndKeptConnections {
            let error = try await failure(try nginx().url("/coded/stacked-junk"), through: own)
            #expect(error.kind == .invalidResponse && error.message.contains("inner deflate"), "\(error)")
        }
    }

    @Test func anInnerLayerThatGrowsPastTheRatioFailsCollectedOrStreamed() async throws {
        try await onFreshAndKeptConnections {
            let collected = try await failure(try nginx().url("/coded/stacked-swallowed"), through: own)
            #expect(collected.kind == .responseTooLarge && collected.message.contains("decompressed"), "\(collected)")
            let stream = own.makeTransfer(for: TransportRequest(url: try nginx().url("/coded/stacked-swallowed"))).events()
            let streamed = await #expect(throws: TransportError.self) { for try await _ in stream {} }
            #expect(streamed?.kind == .responseTooLarge, "\(String(describing: streamed))")
        }
    }

    @Test func withTheRatioLiftedTheCapAppliesToEveryLayerAndTheTimeoutStillFires() async throws {
        var lifted = TransportOptions()
        lifted.maxDecompressionRatio = nil
        var timed = lifted
        timed.maxBodySize = 1 << 30
        timed.timeout = .milliseconds(250)
        try await onFreshAndKeptConnections {
            let capped = try await failure(try nginx().url("/coded/stacked-swallowed"), options: lifted, through: own)
            #expect(capped.kind == .responseTooLarge && capped.message.contains("passed"), "\(capped)")
            let late = try await failure(try nginx().url("/coded/stacked-swallowed"), options: timed, through: own)
            #expect(late.kind == .timedOut, "\(late)")
        }
    }

    @Test func severalContentEncodingFieldsFormOneList() async throws {
        try await onFreshAndKeptConnections {
            let response = try await send(try nginx().url("/coded/two-fields"), through: own)
            #expect(String(decoding: response.body, as: UTF8.self) == Nginx.compactJSON)
        }
    }

    /// The decoder itself: one call on the swallowing body does its budget's work and hands back, however
    /// much input is left.
    @Test func oneDecodingCallDoesAboutItsBudgetsWork() throws {
        let wire = try Data(contentsOf: URL(fileURLWithPath: try nginx().directory + "/www/stacked-swallowed.gz"))
        let codings = try #require(ContentDecoder.codings(["deflate, gzip, gzip"]))
        let decoder = try #require(ContentDecoder(codings))
        wire.withUnsafeBytes { decoder.feed($0) }
        var budget = 4 << 20
        let step = try decoder.decode(atMost: ContentDecoder.step, budget: &budget)
        guard case .yielded = step else { Issue.record("expected the call to yield, got \(step)"); return }
        #expect(budget > -(1 << 20))
        #expect(decoder.hasPendingInput)
        #expect(decoder.mostProducedByALayer < 8 << 20)
    }
}
