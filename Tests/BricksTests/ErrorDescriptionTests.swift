import BrickRequest
import Foundation
import Glibc
import Testing
import TestServers

/// What an error says is a sentence a user can read: no Swift enum syntax, against real servers.
@Suite struct ErrorDescriptionTests {
    static let enumSyntax = ["retriesExhausted(", "undecodable(", "notRetryable", "invalidJSON(", "emptyBody", "connectionRefused"]

    @Test func retriesSpentAndAMismatchedBodyAreSaidInWords() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let rules = AutoRetryConfiguration(breakTime: .milliseconds(1), maxRetryCount: 2, maxBreakTime: .milliseconds(1))
        let gaveUp = await Session().dataResponse(
            for: TransportRequest(url: server.baseURL + "/status?code=503&key=words"), retry: rules, validation: .successful)
        let said = "\(try #require(gaveUp.error))"
        #expect(said.contains("2 retries spent"), "\(said)")
        let mismatch = "\(try #require(await GetWrongShape().dataResponse().error))"
        #expect(mismatch.contains("the JSON does not decode at"), "\(mismatch)")
        for text in [said, mismatch] {
            for syntax in Self.enumSyntax { #expect(!text.contains(syntax), "\(syntax) in \(text)") }
        }
    }

    /// A call's response and its error, dumped or printed whole (a crash report, a test failure), show
    /// neither the URL's password and token nor a credential field, sent or received: on a fresh connection
    /// and on a kept one.
    @Test func dumpsOfAResponseAndAnErrorShowNoSecret() async throws {
        let server = try FaultServer(keepAlive: true)
        defer { server.stop() }
        let session = Session()
        let base = server.baseURL.replacingOccurrences(of: "http://", with: "http://ada:urlpw@")
        for round in 1...2 {
            let ok = await session.dataResponse(for: TransportRequest(
                url: base + "/ok?key=dump\(round)&token=tok123", headers: ["Authorization": "Bearer sekret"]))
            let failed = await session.dataResponse(
                for: TransportRequest(url: base + "/status?code=503&key=dump\(round)&access_token=tok456", headers: ["Cookie": "sid=cook"]),
                validation: .successful)
            #expect(ok.value?.head.status == 200 && failed.error != nil)
            var dumped = ""
            dump(ok, to: &dumped)
            dump(failed, to: &dumped)
            dump(failed.error, to: &dumped)
            for text in [dumped, "\(ok)", "\(failed)", String(reflecting: failed.error)] {
                for secret in ["urlpw", "tok123", "tok456", "sekret", "sid=cook"] { #expect(!text.contains(secret), "\(secret) in \(text)") }
            }
            #expect(dumped.contains("ada:<redacted>@") && dumped.contains("Authorization"))
        }
    }

    /// Every error a call ends with names the call: its method and URL, without the URL's query, fragment
    /// or user info (which may hold secrets). Against a refused port, a status the request does not accept,
    /// a body that does not decode, and a call that gave up; each on a fresh connection and on a kept one.
    @Test func everyErrorSaysWhichCallWithoutTheURLsSecrets() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let session = Session()
        let refused = try Sockets.refusingPort()
        defer { close(refused.fd) }
        let refusedURL = "http://127.0.0.1:\(refused.port)/orders?token=s3cret"
        let rules = AutoRetryConfiguration(breakTime: .milliseconds(1), maxRetryCount: 1, maxBreakTime: .milliseconds(1))
        for round in 1...2 {  // the second round rides the connection the first kept alive
            let transport = await session.dataResponse(for: TransportRequest(url: refusedURL))
            let status = await session.dataResponse(
                for: TransportRequest(method: .delete, url: server.baseURL + "/status?code=404&key=call\(round)&token=s3cret"),
                validation: .successful)
            let gaveUp = await session.dataResponse(
                for: TransportRequest(url: server.baseURL + "/status?code=503&key=gave\(round)"), retry: rules, validation: .successful)
            let cases: [(BrickError?, String)] = [
                (transport.error, #"GET "http://127.0.0.1:\#(refused.port)/orders…": connection refused: "#),
                (status.error, #"DELETE "\#(server.baseURL)/status…": response not accepted ("#),
                (gaveUp.error, #"GET "\#(server.baseURL)/status…": gave up after 2 attempts"#),
            ]
            for (error, prefix) in cases {
                let said = "\(try #require(error))"
                for syntax in Self.enumSyntax { #expect(!said.contains(syntax), "\(syntax) in \(said)") }
                #expect(said.hasPrefix(prefix), "\(said)")
                #expect(!said.contains("s3cret"), "\(said)")
                #expect(said.components(separatedBy: "/status…").count <= 2, "the call is named once: \(said)")
            }
        }
        // A refused status says once what was refused and which brick decides; a download's names its call too.
        let refused404 = "\(try #require(await session.dataResponse(for: TransportRequest(url: server.baseURL + "/status?code=404"), validation: .successful).error))"
        #expect(refused404.contains("status 404 is not one the request accepts") && refused404.contains("NoValidationType"), "\(refused404)")
        #expect(refused404.components(separatedBy: "404").count == 2, "the status said once: \(refused404)")
        let directory = try Paths.scratchDirectory("error-download")
        defer { Paths.removeTree(directory) }
        do {
            _ = try await session.download(from: server.baseURL + "/status?code=404&token=s3cret", to: URL(fileURLWithPath: directory + "/file"))
            Issue.record("a 404 downloaded")
        } catch {
            let said = "\(error)"
            #expect(said.hasPrefix(#"GET "\#(server.baseURL)/status…": response not accepted ("#) && !said.contains("s3cret"), "\(said)")
        }
        let mismatch = try #require(await GetWrongShape().dataResponse().error)
        #expect("\(mismatch)".hasPrefix(#"GET "http"#) && "\(mismatch)".contains(": cannot serialize the response"), "\(mismatch)")
        #expect(mismatch.call?.method == .get)
    }
}
