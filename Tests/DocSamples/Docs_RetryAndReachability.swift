// Generated from Docs/RetryAndReachability.md by .ci/doc-samples.py: edit the page, not this file.

import BrickRequest
import BrickTesting
import Foundation
import Testing

fileprivate final class GetUser: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType, JSONResponseType {
    var URLString: String { "https://api.example.com/users/7" }
}
fileprivate extension AutoRetryConfiguration {
    static let payments = AutoRetryConfiguration(breakTime: .milliseconds(500), maxRetryCount: 5,
                                                 maxNetworkWait: .seconds(30), deadline: .seconds(60))
}
fileprivate protocol PaymentsRetryType: RequestType {}
fileprivate extension PaymentsRetryType { var autoRetryConfiguration: AutoRetryConfiguration { .payments } }
fileprivate final class GetQuote: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType, CircuitBreakerType,
    JSONResponseType {
    var URLString: String { "https://quotes.example.com/latest" }
}
fileprivate final class GetPrice: Component, GETRequestType, APISessionRequestType, HedgedRequestType, JSONResponseType {
    var URLString: String { "https://prices.example.com/latest" }
}
fileprivate final class MyCall: Component, GETRequestType, SoftAutoRetryType, DataResponseType {
    let session: Session
    var path: String { "/r" }
    init(session: Session) { self.session = session; super.init() }
}

fileprivate enum SamplesOfRetryAndReachability {

    // Swift block 4
    fileprivate static func sample4() async throws {
        var configuration = Session.Configuration(baseURL: "https://api.example.com")
        configuration.originProtection = try OriginProtection(
            circuitBreaker: CircuitBreaker(window: 50, minimumCalls: 20, failureRate: 0.5, openDuration: .seconds(10)),
            maxConcurrentCalls: 32)
        let session = Session(configuration: configuration)
    }

    // Swift block 6
    fileprivate static func sample6() async throws {
        let verdict = RetryDecision.decide(RetryDecision.Input(
            configuration: .payments, retriesSoFar: 1, method: .post, idempotency: .key(header: "Idempotency-Key"),
            failure: .status(ResponseHead(status: 503, headers: ["Retry-After": "2"]))))
        #expect(verdict == .retry(after: .seconds(2)))
    }

    // Swift block 7
    fileprivate static func sample7() async throws {
        let clock = ManualClock(), reachability = ManualReachability(), stub = StubTransport(clock: clock)
        var configuration = Session.Configuration(baseURL: "https://api.test")
        configuration.clock = clock
        configuration.reachability = reachability
        let session = Session(configuration: configuration, transport: stub)

        stub.stub(.get, "https://api.test/r", replies: [.response(.init(head: .init(status: 503))), .response(.init(head: .init(status: 200)))])
        async let response = MyCall(session: session).dataResponse()
        await clock.waitForSleepers()            // the backoff has begun
        clock.advance(by: .seconds(30))          // and is over

        reachability.goOffline("api.test")       // the next call waits, unsent …
        reachability.goOnline("api.test")        // … and goes out now
    }
}
