import BrickCurl
import Foundation
import TestServers
import Testing

/// What a finished transfer reports of itself, on a fresh connection and on a kept one.
@Suite struct TransferMetricsTests {
    /// A fresh connection has its connect (and, over HTTPS, TLS) time, in order before the request; a kept
    /// one has none of its own. The body sizes are the bytes sent and received, none sent without a body.
    @Test(arguments: [false, true])
    func phasesInOrderOnAFreshConnectionAndNoneOfItsOwnOnAKeptOne(https: Bool) async throws {
        let server = try nginx()
        var options = TransportOptions()
        options.caBundlePath = server.certificatePath
        let url = https ? server.tlsURL("/cookie/echo") : server.url("/cookie/echo")
        let transport = try #require(CurlTransport())
        let body = Data(repeating: UInt8(ascii: "b"), count: 1000)
        var responses: [TransportResponse] = []
        for method in [HTTPMethod.get, .post, .get] {
            let sent = method == .post ? body : nil
            responses.append(try await send(url, method: method, headers: ["Cookie": "k=v"], body: sent, options: options, through: transport))
        }
        await transport.shutdown()
        let fresh = responses[0].metrics
        #expect(!fresh.reusedConnection)
        #expect(fresh.connectEnd > .zero && fresh.connectEnd >= fresh.nameLookupEnd)
        #expect(https ? fresh.tlsEnd >= fresh.connectEnd : fresh.tlsEnd == .zero)
        #expect(fresh.requestStart >= Swift.max(fresh.connectEnd, fresh.tlsEnd))
        for metrics in responses.map(\.metrics) {
            #expect(metrics.firstByte >= metrics.requestStart && metrics.total >= metrics.firstByte && metrics.total > .zero)
            #expect(metrics.bytesReceived == 3)  // "k=v"
            #expect(metrics.effectiveURL == url)
        }
        for kept in responses.dropFirst().map(\.metrics) {
            #expect(kept.reusedConnection && kept.connectEnd == .zero && kept.tlsEnd == .zero)
        }
        #expect(responses.map(\.metrics.bytesSent) == [0, 1000, 0])
    }
}
