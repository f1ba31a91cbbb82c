import BrickRequest
import Foundation
import Testing
import TestServers

/// What someone used to curl or HTTPie types: options brick spells otherwise get the brick way in the error,
/// `-d` is never silently a download of a field, `-a USER` asks for the password only where a terminal can,
/// and a form takes `name:=json` fields.
@Suite struct CommandHabitsTests {
    @Test(arguments: [
        ("-O", "--download saves the body"), ("--data-raw", "--json TEXT"), ("-i", "-p Hhb"),
        ("-k", "--cacert FILE"), ("--check-status", "exits with 4 for a 4xx"), ("-u", "-a USER:PASSWORD"), ("--verbos", "did you mean --verbose?"),
        ("--max-redirect", "did you mean --max-redirects?"),
    ])
    func anOptionFromCurlOrHTTPieSaysTheBrickWay(option: String, hint: String) async throws {
        let outcome = try await Brick.run(option, "x", try httpbin().url("/get"))
        #expect(outcome.status == 2)
        #expect(outcome.error.contains("unknown option \(option): ") && outcome.error.contains(hint), "\(outcome.error)")
    }

    /// A curl user's first commands, taken as curl means them: a header and the method, a HEAD, the body
    /// to a file quietly, following.
    @Test func curlsUnambiguousOptionsMeanWhatTheyMeanInCurl() async throws {
        let echoed = try await Brick.run("-L", "-H", "X-Habit:  from curl ", "-X", "put", try httpbin().url("/anything"))
        #expect(echoed.status == 0, "\(echoed.error)")
        #expect(echoed.text.contains(#""method": "PUT""#) && echoed.text.contains(#""X-Habit": "from curl""#), "\(echoed.text)")

        let head = try await Brick.run("-I", try httpbin().url("/get"))
        #expect(head.status == 0 && head.text.hasPrefix("HTTP/1.1 200"), "\(head.text)")
        #expect(!head.text.contains("\"url\""), "a HEAD has no body: \(head.text)")

        let directory = try Paths.scratchDirectory("curl-habits")
        defer { Paths.removeTree(directory) }
        let saved = try await Brick.run("-s", "-o", directory + "/ten", try httpbin().url("/bytes/10"))
        #expect(saved.status == 0 && saved.error.isEmpty, "-s says nothing: \(saved.error)")
        #expect((try? Data(contentsOf: URL(fileURLWithPath: directory + "/ten")))?.count == 10)
    }

    @Test(arguments: [["-H", "no colon here"], ["-X", "PUT", "POST"], ["-X", "not a method"]])
    func aCurlOptionThatCannotMeanAnythingSendsNothing(arguments: [String]) async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let outcome = try await PipedChild.run([try Brick.path()] + arguments + [server.baseURL + "/ok?key=curl-habit"])
        #expect(outcome.status == 2, "\(outcome.error)")
        #expect(server.count("curl-habit") == 0)
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

    /// On a terminal (a pseudo-terminal that a Python helper drives, as a user's shell would be), `-a USER`
    /// prompts, reads the password with echo off, and sends it: httpbin's basic-auth check passes, and the
    /// typed password never appears in what the terminal shows.
    @Test func aUserWithoutPasswordIsAskedOnTheTerminalWithoutEcho() async throws {
        let python = try #require(Paths.executable("python3"))
        let driver = Self.promptDriver(typing: #"b"s3cr3t-pw\n""#, then: #"""
            sys.stdout.write(seen.decode("utf-8", "replace"))
            sys.exit(os.waitstatus_to_exitcode(status))
            """#)
        let outcome = try await PipedChild.run([python, "-c", driver, try Brick.path(), try httpbin().url("/basic-auth/ada/s3cr3t-pw")])
        #expect(outcome.status == 0, "\(outcome.error)\n\(outcome.text)")
        #expect(outcome.text.contains("password for ada: "), "\(outcome.text)")
        #expect(outcome.text.contains("\"authenticated\"") && outcome.text.contains("true"), "\(outcome.text)")
        #expect(!outcome.text.contains("s3cr3t-pw"), "the password was echoed: \(outcome.text)")
    }

    /// Ctrl-C at the password prompt ends the command (130) and leaves the terminal as it was: echo on. The
    /// key goes to the prompt, not as a signal that would end the process with echo off.
    @Test func ctrlCAtThePasswordPromptLeavesTheTerminalsEchoOn() async throws {
        let python = try #require(Paths.executable("python3"))
        let driver = Self.promptDriver(typing: #"b"half-typ\x03""#, then: #"""
            echo = bool(termios.tcgetattr(fd)[3] & termios.ECHO)
            sys.stdout.write(f"status={os.waitstatus_to_exitcode(status)} echo={echo}\n")
            """#)
        let outcome = try await PipedChild.run([python, "-c", driver, try Brick.path(), try httpbin().url("/basic-auth/ada/pw")])
        #expect(outcome.text.contains("status=130 echo=True"), "\(outcome.error)\n\(outcome.text)")
    }

    /// `-a @FILE` and `--auth-env NAME` take the credentials from a file or the environment, not the command
    /// line; a missing file or variable is a usage error that sends nothing.
    @Test func credentialsComeFromAFileOrTheEnvironment() async throws {
        let url = try httpbin().url("/basic-auth/ada/from-file")
        let directory = try Paths.scratchDirectory("auth")
        defer { Paths.removeTree(directory) }
        try Paths.write("ada:from-file\n", to: directory + "/credentials")
        let fromFile = try await Brick.run("-a", "@" + directory + "/credentials", url)
        #expect(fromFile.status == 0, "\(fromFile.error)")
        #expect(fromFile.text.contains("\"authenticated\""))
        let bearer = try httpbin().url("/bearer")
        let fromEnvironment = try await Brick.run("-A", "bearer", "--auth-env", "BRICK_TEST_TOKEN", bearer, environment: ["BRICK_TEST_TOKEN": "tok-env-1"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.error)")
        #expect(fromEnvironment.text.contains("tok-env-1"))
        let missing = try await Brick.run("-a", "@" + directory + "/absent", url)
        #expect(missing.status == 2 && missing.error.contains("cannot be read"), "\(missing.error)")
        let unset = try await Brick.run("--auth-env", "BRICK_NO_SUCH_VARIABLE", url)
        #expect(unset.status == 2 && unset.error.contains("has no BRICK_NO_SUCH_VARIABLE"), "\(unset.error)")
    }

    @Test func aFormTakesJSONFieldsAsText() async throws {
        let outcome = try await Brick.run("--form", try httpbin().url("/post"), "age:=36", "name=Ada", "motto:=\"less is more\"")
        #expect(outcome.status == 0, "\(outcome.error)")
        let form = try Brick.json(outcome)["form"]
        #expect(form?["age"]?.stringValue == "36" && form?["name"]?.stringValue == "Ada", "\(String(describing: form))")
        #expect(form?["motto"]?.stringValue == "less is more")
    }

    /// A Python script that runs `brick -a ada URL` on a pseudo-terminal, types `keys` (a Python bytes
    /// literal) at the password prompt, waits for the command to end, then runs `ending` (with `fd`, `seen`
    /// and `status` at hand).
    static func promptDriver(typing keys: String, then ending: String) -> String {
        #"""
        import os, pty, select, sys, termios
        brick, url = sys.argv[1], sys.argv[2]
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(brick, [brick, "-a", "ada", url])
        seen, typed = b"", False
        while True:
            ready, _, _ = select.select([fd], [], [], 20)
            if not ready:
                sys.exit("no output for 20 s: " + repr(seen))
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if not typed and b"password for ada: " in seen:
                os.write(fd, \#(keys))
                typed = True
        _, status = os.waitpid(pid, 0)

        """# + ending
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
