import BrickCore
import BrickTesting
import Foundation
import Testing

/// `Session.shutdown(gracePeriod:)` on a stub transport and a manual clock: new requests are refused at once,
/// running ones have the grace period to finish, and the rest are cancelled when it ends.
struct GracefulShutdownTests {
    let clock = ManualClock()
    let stub: StubTransport
    let session: Session

    init() {
        stub = StubTransport(clock: clock)
        var configuration = Session.Configuration(baseURL: "https://down.test")
        configuration.clock = clock
        session = Session(configuration: configuration, transport: stub)
    }

    @Test func aRunningRequestFinishesWithinTheGracePeriodAndNewOnesAreRefused() async throws {
        stub.stub(.get, "https://down.test/slow", reply: .delayed(.seconds(2), RetryPipelineTests.response(200, "done")))
        async let slow = session.send(TransportRequest(url: "/slow"))
        await clock.waitForSleepers()  // the reply's delay: the request is running
        async let shutdown: Void = session.shutdown(gracePeriod: .seconds(10))
        await clock.waitForSleepers(count: 2)  // and the grace period has begun
        #expect(session.isShutDown)
        do {
            _ = try await session.send(TransportRequest(url: "/slow"))
            Issue.record("a request was accepted during the shutdown")
        } catch {
            guard case .shutDown = error else { Issue.record("got \(error)"); return }
            #expect(!error.requestMayHaveArrived)
        }
        clock.advance(by: .seconds(2))
        #expect(String(decoding: try await slow.body, as: UTF8.self) == "done")
        await shutdown
        #expect(stub.requests.count == 1)
    }

    @Test func whatOutlastsTheGracePeriodIsCancelled() async {
        stub.stub(.get, "https://down.test/never", reply: .never)
        let running = Task { () async -> BrickError? in
            do throws(BrickError) { _ = try await session.send(TransportRequest(url: "/never")) } catch { return error }
            return nil
        }
        while session.runningRequestCount == 0 { await Task.yield() }
        async let shutdown: Void = session.shutdown(gracePeriod: .seconds(5))
        await clock.waitForSleepers()
        clock.advance(by: .seconds(5))
        await shutdown
        #expect(await running.value?.isCancelled == true)
    }

    @Test func aSessionWithNothingRunningShutsDownAtOnce() async {
        await session.shutdown(gracePeriod: .seconds(60))  // no clock advance: the drain is immediate
        #expect(session.isShutDown)
    }
}
