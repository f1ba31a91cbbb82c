import BrickCurl
import TestServers
import Testing

@Suite(.serialized) struct SlowConsumerTests {
    /// A 256 MiB body read by a consumer slower than the network: the transfer pauses while the consumer
    /// is behind, so resident memory grows by far less than the body.
    @Test func aSlowConsumerOfALargeBodyKeepsMemoryBounded() async throws {
        let server = try nginx()
        let stream = try transport().makeTransfer(for: TransportRequest(url: server.url("/big.bin"))).events()
        let before = residentMemoryBytes()
        var peak = before
        var received = 0
        var chunks = 0
        for try await event in stream {
            guard case .body(let chunk) = event else { continue }
            received += chunk.count
            chunks += 1
            if chunks % 16 == 0 {
                peak = max(peak, residentMemoryBytes())
                try await Task.sleep(for: .milliseconds(2))  // the consumer is slow: this is the workload, not a wait
            }
        }
        let growth = peak - before
        print("slow consumer: \(received >> 20) MiB in \(chunks) chunks, RSS before \(before >> 20) MiB, peak \(peak >> 20) MiB, growth \(growth >> 20) MiB")
        #expect(received == Nginx.bigFileSize)
        #expect(growth < 48 << 20)
    }

    @Test func theCollectedBodyOfALargeFileArrivesWhole() async throws {
        var options = TransportOptions()
        options.maxBodySize = Nginx.bigFileSize
        let response = try await send(try nginx().url("/big.bin"), options: options)
        #expect(response.body.count == Nginx.bigFileSize)
        #expect(response.metrics.bytesReceived == Int64(Nginx.bigFileSize))
    }
}
