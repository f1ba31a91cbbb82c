import BrickRequest
import TestServers
import Foundation
import Testing

/// A session is a value until it is used: building configurations and sessions, and reading the shared
/// one, starts no thread; the first request starts libcurl's engine and the netlink monitor. Run in a
/// process of its own (the transfer probe), where no other test has started them already.
@Suite struct LazyStartTests {
    @Test func nothingStartsAThreadUntilTheFirstRequest() async throws {
        let server = try FaultServer()
        let directory = try Paths.scratchDirectory("lazy-start")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try await TransferProbe.run(["threads", server.baseURL + "/status?code=204"], in: directory)
        #expect(outcome.fields["ready"] as? Bool == true, "\(outcome.output)")
        #expect(outcome.fields["before"] as? [String] == [])
        #expect(outcome.fields["afterSetup"] as? [String] == [])
        #expect(outcome.fields["status"] as? Int == 204)
        #expect(outcome.fields["afterRequest"] as? [String] == ["brick-curl", "brick-netlink"])
    }
}
