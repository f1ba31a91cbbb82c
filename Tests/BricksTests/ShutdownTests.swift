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

    /// libcurl's multi handle opens a socket pair to wake itself, without close-on-exec: the engine marks it
    /// as it is made, so that a program the application spawns inherits no socket of the session's (its
    /// connections are opened close-on-exec too). In a process of its own, where nothing else opens any.
    @Test func aSpawnedProgramWouldInheritNoSocketOfTheSession() async throws {
        let server = try FaultServer(keepAlive: true)
        let directory = try Paths.scratchDirectory("inherited")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try await TransferProbe.run(["inherited", server.baseURL + "/ok"], in: directory)
        let fields = outcome.fields
        #expect(fields["status"] as? Int == 200, "\(outcome.output)")
        #expect(fields["socketsAfter"] as? Int == fields["socketsBefore"] as? Int, "\(outcome.output)")
    }

    /// A body whose stacked codings take the engine a second or more to decode (1 GiB of empty deflate
    /// blocks inside two gzip layers, ~15 KB on the wire, no ratio to stop it) does not hold the engine: a GET
    /// sent on the same session once the bomb's head came is answered before the bomb ends. In a process of
    /// its own, so that nothing else delays the task that reads the answer.
    @Test func aLongDecodeDoesNotHoldTheEngineFromAnotherTransfer() async throws {
        let nginx = try Nginx.shared.get()
        let directory = try Paths.scratchDirectory("interleaved")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try await TransferProbe.run(["interleaved", nginx.url("/coded/stacked-swallowed"), nginx.url("/small")], in: directory)
        let fields = outcome.fields
        #expect(fields["small"] as? Int == 100, "\(outcome.output)")
        #expect(fields["bombEndedFirst"] as? Bool == false, "\(outcome.output)")
        #expect(fields["bombEnded"] as? Bool == true, "\(outcome.output)")
    }
}
