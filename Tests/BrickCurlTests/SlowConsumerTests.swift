import BrickCurl
import TestServers
import Testing

/// Large bodies at the transport level. (A slow consumer's bounded memory is measured in a process of its
/// own: BricksTests' LargeTransferTests.)
@Suite(.serialized) struct SlowConsumerTests {
    @Test func theCollectedBodyOfALargeFileArrivesWhole() async throws {
        var options = TransportOptions()
        options.maxBodySize = Nginx.bigFileSize
        let response = try await send(try nginx().url("/big.bin"), options: options)
        #expect(response.body.count == Nginx.bigFileSize)
        #expect(response.metrics.bytesReceived == Int64(Nginx.bigFileSize))
    }
}
