import BrickRequest
import Foundation
import Glibc
import Testing
import TestServers

/// `--session NAME`: headers and cookies kept between runs of the command, in owner-only files, against httpbin.
@Suite struct CommandSessionTests {
    @Test func aSessionKeepsTheHeadersAndCookiesOfOneRunForTheNextOwnerOnly() async throws {
        let config = try Paths.scratchDirectory("session")
        defer { Paths.removeTree(config) }
        let environment = ["XDG_CONFIG_HOME": config]
        let server = try httpbin()
        // The first run logs in: a session cookie (no expiry) and the credentials and a header of its own.
        let login = try await Brick.run(
            "--session", "work", server.url("/cookies/set/sid/abc"), "X-Api:k1", "-a", "ada:pw", environment: environment)
        #expect(login.status == 0, "\(login.error)")

        let next = try await Brick.run("--session", "work", server.url("/anything"), environment: environment)
        let headers = try #require(try Brick.json(next)["headers"])
        #expect(headers["X-Api"]?.stringValue == "k1")
        #expect(headers["Authorization"]?.stringValue == "Basic " + Data("ada:pw".utf8).base64EncodedString())
        #expect(headers["Cookie"]?.stringValue == "sid=abc")

        // A header named again replaces the kept one, for this run and the next.
        _ = try await Brick.run("--session", "work", server.url("/anything"), "X-Api:k2", environment: environment)
        let replaced = try await Brick.run("--session", "work", server.url("/anything"), environment: environment)
        #expect(try Brick.json(replaced)["headers"]?["X-Api"]?.stringValue == "k2")

        // Another session, or no session, sends none of it; nor does the same name for another host.
        let other = try await Brick.run("--session", "home", server.url("/anything"), environment: environment)
        #expect(try Brick.json(other)["headers"]?["X-Api"] == nil)
        let none = try await Brick.run(server.url("/anything"), environment: environment)
        #expect(try Brick.json(none)["headers"]?["Cookie"] == nil)
        let otherHost = try await Brick.run("--session", "work", server.url("/anything").replacingOccurrences(of: "127.0.0.1", with: "localhost"), environment: environment)
        #expect(try Brick.json(otherHost)["headers"]?["X-Api"] == nil)

        let directory = config + "/brick/sessions/127.0.0.1_\(server.port)/work"
        #expect(try mode(of: directory) == 0o700)
        #expect(try mode(of: directory + "/headers.json") == 0o600)
        #expect(try mode(of: directory + "/cookies") == 0o600)
        let cookies = try String(contentsOfFile: directory + "/cookies", encoding: .utf8)
        #expect(cookies.contains("\t0\tsid\tabc\n"), "\(cookies)")  // curl's form of a session cookie
        let kept = try String(contentsOfFile: directory + "/headers.json", encoding: .utf8)
        #expect(kept.contains("\"X-Api\"") && !kept.contains("Content-Type") && !kept.contains("Cookie"))
    }

    /// A header the library refused was never sent, and is not kept: a value read from a file of three
    /// lines cannot become three fields of the next run.
    @Test func aRefusedHeaderIsNotKeptAndAValueCannotSplitIntoFields() async throws {
        let config = try Paths.scratchDirectory("session-refused")
        defer { Paths.removeTree(config) }
        let environment = ["XDG_CONFIG_HOME": config]
        let server = try httpbin()
        try "token\nX-Forwarded-For: 10.0.0.1\nX-Other: 2\n".write(toFile: config + "/token.txt", atomically: true, encoding: .utf8)
        let refused = try await Brick.run(
            "--session", "s", server.url("/anything"), "Authorization:@" + config + "/token.txt", "X-Good:1", environment: environment)
        #expect(refused.status != 0 && refused.error.contains("invalid header"), "\(refused.error)")
        let next = try await Brick.run("--session", "s", server.url("/anything"), environment: environment)
        let headers = try #require(try Brick.json(next)["headers"])
        #expect(headers["X-Forwarded-For"] == nil && headers["X-Other"] == nil && headers["Authorization"] == nil)
        #expect(headers["X-Good"]?.stringValue == "1")
    }

    /// As ssh refuses a `~/.ssh` others can write: a session directory writable by others, or a file in it
    /// that is a symbolic link or writable by others, is refused before anything is read or sent, and left
    /// as it was.
    @Test func aSessionOthersCouldHavePlantedIsRefused() async throws {
        let scratch = try Paths.scratchDirectory("session-planted")
        defer { Paths.removeTree(scratch) }
        let server = try httpbin()
        let open = scratch + "/open"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
        chmod(open, 0o777)
        try #"{"fields":[{"name":"X-Planted","value":"1"}]}"#.write(toFile: open + "/headers.json", atomically: false, encoding: .utf8)
        let refused = try await Brick.run("--session", open, server.url("/anything"))
        #expect(refused.status == 2 && refused.error.contains("writable by others"), "\(refused.error)")
        #expect(refused.output.isEmpty)
        #expect(try mode(of: open) == 0o777)

        let linked = scratch + "/linked"
        _ = try await Brick.run("--session", linked, server.url("/anything"), "X-Mine:1")
        try? FileManager.default.removeItem(atPath: linked + "/cookies")
        try FileManager.default.createSymbolicLink(atPath: linked + "/cookies", withDestinationPath: scratch + "/elsewhere")
        let link = try await Brick.run("--session", linked, server.url("/anything"))
        #expect(link.status == 2 && link.error.contains("symbolic link"), "\(link.error)")
        try FileManager.default.removeItem(atPath: linked + "/cookies")
        chmod(linked + "/headers.json", 0o664)
        let writable = try await Brick.run("--session", linked, server.url("/anything"))
        #expect(writable.status == 2 && writable.error.contains("writable by others"), "\(writable.error)")
        chmod(linked + "/headers.json", 0o600)
        let mended = try await Brick.run("--session", linked, server.url("/anything"))
        #expect(try Brick.json(mended)["headers"]?["X-Mine"]?.stringValue == "1")
    }

    @Test func aSessionNamedByAPathLivesThereAndABadNameIsRefused() async throws {
        let scratch = try Paths.scratchDirectory("session-path")
        defer { Paths.removeTree(scratch) }
        let server = try httpbin()
        let directory = scratch + "/mine"
        _ = try await Brick.run("--session", directory, server.url("/anything"), "X-Api:p1")
        let again = try await Brick.run("--session", directory, server.url("/anything"))
        #expect(try Brick.json(again)["headers"]?["X-Api"]?.stringValue == "p1")

        for name in ["..", ".hidden", "a b", ""] {
            let refused = try await Brick.run("--session", name, server.url("/anything"), environment: ["XDG_CONFIG_HOME": scratch])
            #expect(refused.status == 2, "\(name)")
            #expect(refused.error.contains("--session takes a name"), "\(refused.error)")
        }
    }
}
