import BrickRequest
import Foundation
import Testing
import TestServers

/// A POST that asks to be hedged in code, around the brick that would refuse it at compile time.
final class HedgedPost: Component, POSTRequestType, StringResponseType {
    let session: Session
    let URLString: String
    var hedging: Hedging? { .standard }
    init(_ url: String, session: Session) {
        self.session = session
        self.URLString = url
        super.init()
    }
}

/// Hedging's refusal of a request that may not go twice. (Its latency against a stalling origin is measured
/// in a process of its own: `OutageTests.hedgingCutsTheTailOfAStallingOrigin`.)
@Suite struct HedgingTests {
    @Test func aPostThatMayNotGoTwiceIsNeverHedged() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let error = await HedgedPost(server.baseURL + "/slow?ms=200&key=post", session: Session()).dataResponse().error
        guard case .requestEncoding(.notHedgeable(let method))? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(method == "POST")
        #expect(error?.requestMayHaveArrived == false)
        #expect(server.count("post") == 0)
        print("RETRY-FIGURE hedged_posts=\(server.count("post"))")
    }
}
