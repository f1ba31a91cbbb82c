import BrickRequest
import Foundation
import Synchronization
import Testing
import TestServers

/// Quick retry rules for real faults: short real delays, so that a test costs milliseconds.
let quickRetries = AutoRetryConfiguration(
    breakTime: .milliseconds(5), maxRetryCount: 3, maxBreakTime: .milliseconds(20), maxNetworkWait: .seconds(5))

/// A call to the fault server with the given method, retry rules and options.
final class FaultCall: Component, RequestType, StringResponseType {
    let method: HTTPMethod
    let session: Session
    let URLString: String
    let autoRetryConfiguration: AutoRetryConfiguration
    let transportOptions: TransportOptions

    init(_ url: String, method: HTTPMethod = .get, session: Session, rules: AutoRetryConfiguration = quickRetries,
         options: TransportOptions = TransportOptions()) {
        self.method = method
        self.session = session
        self.URLString = url
        self.autoRetryConfiguration = rules
        self.transportOptions = options
        super.init()
    }
}

/// The stock soft-retry brick, on a session of the test's choosing.
final class SoftCall: Component, GETRequestType, SoftAutoRetryType, StringResponseType {
    let session: Session
    let URLString: String
    init(_ url: String, session: Session) {
        self.session = session
        self.URLString = url
        super.init()
    }
}

/// Retries against real faults: our fault server on loopback, libcurl, the netlink monitor.
@Suite struct FaultRetryTests {
    let server: FaultServer
    let session: Session

    init() throws {
        server = try FaultServer()
        var configuration = Session.Configuration()
        configuration.retryObserver = { [server] event in
            // A listener told to refuse or reset serves again once the first transport failure is retried.
            if case .retrying(_, _, _, let failure) = event, failure.transportError != nil { server.recoverFromListenerFaults() }
        }
        session = Session(configuration: configuration)
    }

    func url(_ path: String, key: String = #function) -> String {
        server.baseURL + path + (path.contains("?") ? "&" : "?") + "key=" + key.filter(\.isLetter)
    }

    func key(_ name: String = #function) -> String { name.filter(\.isLetter) }

    @Test func a503WithRetryAfterIsRetriedUntilItSucceeds() async throws {
        let response = await SoftCall(url("/status?code=503&retry_after=0&times=2"), session: session).dataResponse()
        #expect(try response.result.get() == "ok")
        #expect(server.count(key()) == 3)
        #expect(response.attempts.map(\.repeatReason) == ["retry after status 503", "retry after status 503", nil])
    }

    @Test func a429IsRetriedAndAPermanentOneGivesUpAfterExactlyThreeRetries() async throws {
        let response = await FaultCall(url("/status?code=429&retry_after=0"), session: session).dataResponse()
        guard case .gaveUp(let failure) = response.error else { Issue.record("expected gaveUp: \(String(describing: response.error))"); return }
        #expect(failure.reason == .retriesExhausted(retries: 3))
        #expect(server.count(key()) == 4)
    }

    @Test func aResetGetIsRetried() async throws {
        #expect(try await FaultCall(url("/reset?times=1"), session: session).response() == "ok")
        #expect(server.count(key()) == 2)
    }

    @Test func aResetPostIsNotSentTwice() async {
        let response = await FaultCall(url("/reset?times=1"), method: .post, session: session).dataResponse()
        #expect(response.error?.transportError?.kind == .connectionLost)
        #expect(server.count(key()) == 1)
    }

    @Test func aResetInTheMiddleOfTheBodyIsRetried() async throws {
        #expect(try await FaultCall(url("/reset-mid-body?times=1"), session: session).response() == "ok")
        #expect(server.count(key()) == 2)
    }

    @Test func aTruncatedBodyIsRetried() async throws {
        let response = await FaultCall(url("/truncated?times=1"), session: session).dataResponse()
        #expect(try response.result.get() == "ok")
        #expect(response.attempts.first?.error?.transportError?.kind == .connectionLost)
    }

    @Test func aMalformedStatusLineIsNotRetried() async {
        let response = await FaultCall(url("/malformed"), session: session).dataResponse()
        #expect(response.error?.transportError?.kind == .invalidResponse)
        #expect(server.count(key()) == 1)
    }

    @Test func aServerThatHangsTimesOutAndTheRetrySucceeds() async throws {
        var options = TransportOptions()
        options.timeout = .milliseconds(300)
        let response = await FaultCall(url("/hang?times=1"), session: session, options: options).dataResponse()
        #expect(try response.result.get() == "ok")
        #expect(response.attempts.first?.error?.transportError?.kind == .timedOut)
    }

    @Test func aDrippingServerStallsAndTheRetrySucceeds() async throws {
        var options = TransportOptions()
        options.lowSpeedLimit = 1000
        options.lowSpeedTime = .seconds(1)
        let response = await FaultCall(url("/drip?bytes=1000&ms=50&times=1"), session: session, options: options).dataResponse()
        #expect(try response.result.get() == "ok")
        #expect(response.attempts.first?.error?.transportError?.kind == .stalled)
    }

    @Test func aPostThatWasRefusedIsRetriedOnceTheServerListensAgain() async throws {
        server.refuse()
        let response = await FaultCall(url("/ok"), method: .post, session: session).dataResponse()
        #expect(try response.result.get() == "ok")
        #expect(response.attempts.first?.error?.transportError?.kind == .connectionRefused)
        #expect(server.count(key()) == 1)
    }

    @Test func aConnectionResetOnAcceptIsRetriedForAGet() async throws {
        server.resetOnAccept(true)
        let response = await FaultCall(url("/ok"), session: session).dataResponse()
        #expect(try response.result.get() == "ok")
        #expect(response.attempts.count == 2)
    }

    @Test func nonAutoRetryGivesTheFirstFailure() async {
        let response = await FaultCall(url("/status?code=503"), session: session, rules: .none).dataResponse()
        guard case .validation = response.error else { Issue.record("expected the validation error"); return }
        #expect(server.count(key()) == 1)
    }
}

extension FaultServer {
    /// Serves normally again after `refuse()` or `resetOnAccept(true)`.
    func recoverFromListenerFaults() {
        resetOnAccept(false)
        try? serve()
    }
}
