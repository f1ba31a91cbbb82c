import BrickRequest
import Foundation
import Testing
import TestServers

/// What the command shows on a terminal (a pseudo-terminal, as at a prompt) and what `--print` chooses, against
/// httpbin and nginx.
@Suite struct CommandTerminalTests {
    static let escape = "\u{1B}["

    @Test func onATerminalTheHeadAndTheLaidOutJSONComeInColourAndPipedTheBodyAloneAsItCame() async throws {
        let url = try httpbin().url("/json")
        let shown = try await Brick.onTerminal(url, environment: ["NO_COLOR": ""])  // empty is unset (no-color.org)
        #expect(shown.status == 0, "\(shown.error)")
        #expect(shown.text.hasPrefix(Self.escape + "1;32mHTTP/1.1 200 OK" + Self.escape + "0m\n"), "\(shown.text.prefix(80))")
        #expect(shown.text.contains(Self.escape + "36mContent-Type" + Self.escape + "0m: application/json\n"))
        #expect(shown.text.contains("\n\n{\n  " + Self.escape + "34m\"slideshow\"" + Self.escape + "0m: {\n"))
        #expect(shown.error.isEmpty, "\(shown.error)")

        let plain = try await Brick.onTerminal(url, environment: ["NO_COLOR": "1"])
        #expect(!plain.text.contains(Self.escape))
        #expect(plain.text.hasPrefix("HTTP/1.1 200 OK\n"))
        let laidOut = try #require(plain.text.components(separatedBy: "\n\n").dropFirst().first)
        #expect(laidOut.hasPrefix("{\n  \"slideshow\": {\n    \"author\": \"Yours Truly\",\n"), "\(laidOut.prefix(80))")

        let piped = try await Brick.run(url)
        #expect(!piped.text.contains("HTTP/1.1") && !piped.text.contains(Self.escape))
        let direct = try await PipedChild.run(["/usr/bin/curl", "-s", url])
        #expect(piped.output == direct.output)  // byte for byte what the server sent
    }

    @Test func aNotFoundShowsItsStatusLineAndBodyAndExitsFourOnATerminalAndPiped() async throws {
        let url = try nginx().url("/no-such-file")
        let shown = try await Brick.onTerminal(url, environment: ["NO_COLOR": "1"])
        #expect(shown.status == 4)
        #expect(shown.text.hasPrefix("HTTP/1.1 404 Not Found\n"), "\(shown.text)")
        #expect(shown.text.contains("<title>404 Not Found</title>"))
        #expect(shown.error.isEmpty, "\(shown.error)")  // the status line is on the screen once

        let coloured = try await Brick.onTerminal(url, environment: ["NO_COLOR": ""])
        #expect(coloured.text.hasPrefix(Self.escape + "1;31mHTTP/1.1 404 Not Found"))

        let piped = try await Brick.run(url)
        #expect(piped.status == 4)
        #expect(piped.error == "HTTP/1.1 404 Not Found\n")
        #expect(piped.text.contains("<title>404 Not Found</title>") && !piped.text.contains("HTTP/1.1"))
    }

    @Test func printChoosesTheHeadsAndBodiesShown() async throws {
        let url = try httpbin().url("/anything")
        let request = try await Brick.run("-p", "HB", url, "name=Ada", "X-Trace:t1")
        #expect(request.status == 0, "\(request.error)")
        let lines = request.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "POST " + url)
        #expect(lines.contains("X-Trace: t1") && lines.contains("Content-Type: application/json"))
        #expect(lines.contains(#"{"name": "Ada"}"#))
        #expect(!request.text.contains("HTTP/1.1") && !request.text.contains("\"origin\""))  // nothing of the response

        let head = try await Brick.run("--print=h", url)
        #expect(head.text.hasPrefix("HTTP/1.1 200 OK\n") && head.text.hasSuffix("\n\n"), "\(head.text)")
        #expect(head.text.contains("Content-Type: application/json\n") && !head.text.contains("\"origin\""))

        let everything = try await Brick.run("-p", "Hhb", url)
        let text = everything.text
        let parts = ["GET " + url, "HTTP/1.1 200 OK", "\"origin\""].map { text.range(of: $0)?.lowerBound }
        #expect(parts.allSatisfy { $0 != nil } && parts[0]! < parts[1]! && parts[1]! < parts[2]!, "\(text)")

        let wrong = try await Brick.run("-p", "hx", url)
        #expect(wrong.status == 2)
        #expect(wrong.error.contains("--print takes the letters"))
    }

    @Test func aBinaryBodyIsNotWrittenToATerminalButGoesWholeDownAPipe() async throws {
        let url = try httpbin().url("/image/png")
        let shown = try await Brick.onTerminal(url, environment: ["NO_COLOR": "1"])
        #expect(shown.status == 0)
        #expect(shown.text.hasSuffix("(8.1 kB of binary data, not shown on a terminal: pipe it or use --download FILE)\n"), "\(shown.text)")
        let piped = try await Brick.run(url)
        #expect(piped.output.count == 8090)
        #expect(piped.output.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
    }
}
