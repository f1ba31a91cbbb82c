import BrickCore
import BrickServiceLifecycle
import BrickTesting
import Foundation
import Logging
import ServiceLifecycle
import Testing

/// A session in a `ServiceGroup`: the group's graceful shutdown drains it.
struct SessionServiceTests {
    @Test func aGroupsGracefulShutdownLetsTheRunningRequestFinishThenRefusesNewOnes() async throws {
        let clock = ManualClock()
        let stub = StubTransport(clock: clock)
        stub.stub(.get, "https://svc.test/slow", reply: .delayed(.seconds(1), .response(TransportResponse(
            head: ResponseHead(status: 200), body: Data("finished".utf8)))))
        var configuration = Session.Configuration(baseURL: "https://svc.test")
        configuration.clock = clock
        let session = Session(configuration: configuration, transport: stub)
        let group = ServiceGroup(services: [SessionService(session, gracePeriod: .seconds(30))], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        async let slow = session.send(TransportRequest(url: "/slow"))
        await clock.waitForSleepers()  // the request is in flight
        await group.triggerGracefulShutdown()
        await clock.waitForSleepers(count: 2)  // the session's grace period has begun
        #expect(session.isShutDown)
        clock.advance(by: .seconds(1))
        #expect(String(decoding: try await slow.body, as: UTF8.self) == "finished")
        try await running.value  // the service returned: the session is drained
        await #expect(throws: BrickError.self) { try await session.send(TransportRequest(url: "/slow")) }
    }
}
