import BrickRequest
import Foundation
import Testing
import TestServers

/// What a server sends never reaches the terminal raw, and secrets it hands back are hidden; a failed
/// answer shows its status line and leaves no file behind.
@Suite struct CommandSafetyTests {
    @Test func verboseShowsControlSequencesEscapedAndHidesSecretsAServerSent() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let escape = "\u{1B}"
        server.script("raw", [
            "HTTP/1.1 200 OK \(escape)[2J\(escape)]0;pwned\u{07}\r\nX-Title: \(escape)]0;owned\u{07}title\r\n"
                + "Location: https://app.example/callback?code=SPLX0auth&state=1\r\nX-Custom-Credential: hunter2\r\n"
                + "Access-Control-Allow-Credentials: true\r\nWWW-Authenticate: Bearer realm=\"api\"\r\nSet-Cookie: sid=s3cr3t\r\n"
                + "X-Bidi: a\u{202E}b\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
        ])
        let outcome = try await Brick.run("-v", server.baseURL + "/scripted?key=raw")
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(!outcome.error.contains(escape) && !outcome.error.contains("\u{07}") && !outcome.error.contains("\u{202E}"))
        #expect(outcome.error.contains(#"< HTTP/1.1 200 OK \x1B[2J\x1B]0;pwned\x07"#), "\(outcome.error)")
        #expect(outcome.error.contains(#"< X-Title: \x1B]0;owned\x07title"#))
        #expect(outcome.error.contains(#"< X-Bidi: a\u{202E}b"#))
        #expect(outcome.error.contains("< Location: https://app.example/callback?code=<redacted>&state=1"))
        #expect(outcome.error.contains("< X-Custom-Credential: <redacted>"))
        #expect(!outcome.error.contains("SPLX0auth") && !outcome.error.contains("hunter2") && !outcome.error.contains("s3cr3t"))
        // Standard fields are judged by what they mean, not by the words in their names.
        #expect(outcome.error.contains("< Access-Control-Allow-Credentials: true"), "\(outcome.error)")
        #expect(outcome.error.contains(#"< WWW-Authenticate: Bearer realm="api""#))
        #expect(outcome.error.contains("< Set-Cookie: <redacted>"))

        // The head shown on a terminal (no colour, so that any escape would be the server's) escapes them too.
        let shown = try await Brick.onTerminal(server.baseURL + "/scripted?key=raw", environment: ["NO_COLOR": "1"])
        #expect(shown.status == 0, "\(shown.error)")
        #expect(!shown.text.contains(escape) && !shown.text.contains("\u{07}") && !shown.text.contains("\u{202E}"), "\(shown.text)")
        #expect(shown.text.hasPrefix(#"HTTP/1.1 200 OK \x1B[2J\x1B]0;pwned\x07"#), "\(shown.text)")
        #expect(shown.text.contains(#"X-Title: \x1B]0;owned\x07title"#) && shown.text.contains(#"X-Bidi: a\u{202E}b"#))
    }

    @Test func aGetAnswered404ShowsItsStatusLineAndADownloadLeavesNoPartialFile() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let get = try await Brick.run(server.baseURL + "/status?code=404&key=get")
        #expect(get.status == 4)
        #expect(get.error.contains("HTTP/1.1 404 Status"), "\(get.error)")
        #expect(get.text == "failure 1")

        let directory = try Paths.scratchDirectory("command-404")
        defer { Paths.removeTree(directory) }
        let destination = directory + "/file.bin"
        let download = try await Brick.run("--download", destination, server.baseURL + "/status?code=404&key=download")
        #expect(download.status == 4, "\(download.error)")
        #expect(download.error.contains("HTTP/1.1 404 Status"), "\(download.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty, "nothing left behind")
    }
}
