import BrickRequest
import Foundation
import Testing
import TestServers

/// What someone used to curl or HTTPie types: options brick spells otherwise get the brick way in the error,
/// `-d` is never silently a download of a field, `-a USER` asks for the password only where a terminal can,
/// and a form takes `name:=json` fields.
@Suite struct CommandHabitsTests {
    @Test(arguments: [
        ("-L", "follows redirects by default"), ("-o", "--download FILE"), ("-H", "'Name:value'"), ("-X", "brick POST URL"),
        ("-k", "--cacert FILE"), ("--check-status", "exits with 4 for a 4xx"), ("-u", "-a USER:PASSWORD"), ("--verbos", "did you mean --verbose?"),
        ("--max-redirect", "did you mean --max-redirects?"),
    ])
    func anOptionFromCurlOrHTTPieSaysTheBrickWay(option: String, hint: String) async throws {
        let outcome = try await Brick.run(option, "x", try httpbin().url("/get"))
        #expect(outcome.status == 2)
        #expect(outcome.error.contains("unknown option \(option): ") && outcome.error.contains(hint), "\(outcome.error)")
    }

    @Test func dashDWithAFieldIsRefusedNotTakenForAFile() async throws {
        let outcome = try await Brick.run("-d", "a=b", try httpbin().url("/post"))
        #expect(outcome.status == 2)
        #expect(outcome.error.contains("-d is --download FILE"), "\(outcome.error)")
        #expect(!FileManager.default.fileExists(atPath: "a=b") && !FileManager.default.fileExists(atPath: "a=b.part"))
    }

    /// With no terminal to ask on (a new session has no controlling terminal), `-a USER` says what it needs.
    @Test func aUserWithoutPasswordIsAskedForOnlyWhereATerminalCan() async throws {
        let setsid = try #require(Paths.executable("setsid"), "util-linux's setsid")
        let outcome = try await PipedChild.run([setsid, "--wait", try Brick.path(), "-a", "ada", try httpbin().url("/basic-auth/ada/pw")])
        #expect(outcome.status == 2)
        #expect(outcome.error.contains("-a takes user:password") && outcome.error.contains("no terminal"), "\(outcome.error)")
    }

    @Test func aFormTakesJSONFieldsAsText() async throws {
        let outcome = try await Brick.run("--form", try httpbin().url("/post"), "age:=36", "name=Ada", "motto:=\"less is more\"")
        #expect(outcome.status == 0, "\(outcome.error)")
        let form = try Brick.json(outcome)["form"]
        #expect(form?["age"]?.stringValue == "36" && form?["name"]?.stringValue == "Ada", "\(String(describing: form))")
        #expect(form?["motto"]?.stringValue == "less is more")
    }
}

/// Redirects under the command: followed by default and shown hop by hop under `-v`, bounded by
/// `--max-redirects`, and left alone with `--no-follow`.
@Suite struct CommandRedirectTests {
    @Test func verboseShowsEveryHop() async throws {
        let outcome = try await Brick.run("-v", try httpbin().url("/redirect/3"))
        #expect(outcome.status == 0, "\(outcome.error)")
        let lines = outcome.error.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("< HTTP/1.1 302") }.count == 3, "\(outcome.error)")
        #expect(lines.filter { $0.hasPrefix("> GET ") }.count == 4)
        #expect(lines.contains("* redirect 3 of 3"))
        #expect(lines.contains { $0.hasPrefix("> GET ") && $0.hasSuffix("/get") })
        #expect(lines.last { $0.hasPrefix("< HTTP/1.1 ") }?.hasPrefix("< HTTP/1.1 200") == true)
    }

    @Test func tooManyRedirectsSayHowManyWereTakenAndMoreCanBeAllowed() async throws {
        let stopped = try await Brick.run(try httpbin().url("/redirect/12"))
        #expect(stopped.status == 1)
        #expect(stopped.error.contains("stopped after 10 redirects") && stopped.error.contains("--max-redirects N follows more"), "\(stopped.error)")
        let allowed = try await Brick.run("--max-redirects", "12", try httpbin().url("/redirect/12"))
        #expect(allowed.status == 0, "\(allowed.error)")
        let fewer = try await Brick.run("--max-redirects", "2", try httpbin().url("/redirect/3"))
        #expect(fewer.status == 1 && fewer.error.contains("stopped after 2 redirects"), "\(fewer.error)")
    }

    @Test func noFollowShowsTheRedirect() async throws {
        let outcome = try await Brick.run("--no-follow", "-p", "h", try httpbin().url("/redirect/1"))
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.text.hasPrefix("HTTP/1.1 302"), "\(outcome.text)")
        #expect(outcome.text.contains("Location: /get"))
    }
}
