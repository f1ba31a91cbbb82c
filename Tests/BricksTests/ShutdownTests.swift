import BrickRequest
import Foundation
import TestServers
import Testing

/// `Session.shutdown(gracePeriod:)` on a real libcurl session, in a process of its own so that its threads and
/// descriptors can be counted: a request in flight is cut when the grace period ends, new ones are refused,
/// the engine thread is joined and every descriptor the session opened is closed.
@Suite struct ShutdownTests {
    @Test func aShutDownSessionReleasesItsThreadAndDescriptors() async throws {
        let server = try FaultServer()
        let directory = try Paths.scratchDirectory("shutdown")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try await TransferProbe.run(["shutdown", server.baseURL + "/status?code=204", server.baseURL + "/hang"], in: directory)
        let fields = outcome.fields
        #expect(fields["ok"] as? Int == 204, "\(outcome.output)")
        #expect(fields["during"] as? [String] == ["brick-curl"])
        #expect(fields["cut"] as? String == "cancelled")
        #expect(fields["refusedShutDown"] as? Bool == true)
        #expect(fields["after"] as? [String] == [])
        let before = try #require(fields["fdsBefore"] as? Int)
        #expect(fields["fdsAfterShutdown"] as? Int == before + 1)  // the engine's eventfd, closed with the session
        #expect(fields["fdsAfterRelease"] as? Int == before)
    }
}
