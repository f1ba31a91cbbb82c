import BrickCurl
import TestServers
import Testing

@Suite struct CancellationTests {
    @Test func cancelStopsAStreamMidTransfer() async throws {
        let transfer = try transport().makeTransfer(for: TransportRequest(url: try httpbin().url("/drip?numbytes=30&duration=30&delay=0")))
        var chunks = 0
        do {
            for try await event in transfer.events() {
                if case .body = event {
                    chunks += 1
                    transfer.cancel()
                }
            }
            Issue.record("the stream ended instead of failing")
        } catch let error as TransportError {
            #expect(error.kind == .cancelled)
        }
        #expect(chunks == 1)
    }

    @Test func taskCancellationCancelsACollectingTransfer() async throws {
        let url = try httpbin().url("/delay/10")
        let task = Task { try await send(url) }
        task.cancel()
        let result = await task.result
        #expect(throws: TransportError.self) { try result.get() }
        if case .failure(let error as TransportError) = result { #expect(error.kind == .cancelled) }
    }

    @Test func cancelWhileWaitingForTheResponse() async throws {
        let transfer = try transport().makeTransfer(for: TransportRequest(url: try httpbin().url("/delay/10")))
        async let outcome: TransportResponse = transfer.response()
        // The cancel may land before or after the transfer reached the engine: both must end in `cancelled`.
        transfer.cancel()
        do {
            _ = try await outcome
            Issue.record("the request finished instead of being cancelled")
        } catch let error as TransportError {
            #expect(error.kind == .cancelled)
        }
    }

    @Test func aCancelledTransferCannotStart() async throws {
        let transfer = try transport().makeTransfer(for: TransportRequest(url: try httpbin().url("/get")))
        transfer.cancel()
        await #expect(throws: TransportError.cancelled) { try await transfer.response() }
    }

    @Test func droppingTheIteratorCancelsTheTransfer() async throws {
        let transfer = try transport().makeTransfer(for: TransportRequest(url: try httpbin().url("/drip?numbytes=20&duration=20&delay=0")))
        let stream = transfer.events()
        for try await event in stream {
            if case .body = event { break }
        }
        // The loop's iterator is gone, so the transfer was cancelled: the rest of the drip never comes.
        var again = stream.makeAsyncIterator()
        await #expect(throws: TransportError.cancelled) { _ = try await again.next() }
    }
}
