import BrickCurl
import TestServers
import Testing

@Suite struct CancellationTests {
    /// Our fault server drips one byte a second: the transfer cannot end on its own within the test, and
    /// a cancel that did not land shows as a next byte rather than a hang.
    @Test func cancelStopsAStreamMidTransfer() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let transfer = try transport().makeTransfer(for: TransportRequest(url: server.baseURL + "/drip?bytes=30&ms=1000"))
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
        let server = try FaultServer()
        defer { server.stop() }
        let transfer = try transport().makeTransfer(for: TransportRequest(url: server.baseURL + "/drip?bytes=30&ms=1000"))
        let stream = transfer.events()
        for try await event in stream {
            if case .body = event { break }
        }
        // The loop's iterator is gone, so the transfer was cancelled: the rest of the drip never comes.
        var again = stream.makeAsyncIterator()
        do {
            let next = try await again.next()
            Issue.record("read \(String(describing: next)) after the iterator was dropped")
        } catch let error as TransportError {
            #expect(error.kind == .cancelled, "\(error)")
        }
    }
}
