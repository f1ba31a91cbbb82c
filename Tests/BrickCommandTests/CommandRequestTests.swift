import BrickRequest
import Foundation
import Testing
import TestServers

/// What the command sends and how it reports the answer, checked against httpbin, which echoes requests.
@Suite struct CommandRequestTests {
    @Test func queryItemsAndHeadersReachTheServer() async throws {
        let outcome = try await Brick.run("GET", try httpbin().url("/anything"), "name==Ada Lovelace", "tag==a&b", "X-Token:abc")
        #expect(outcome.status == 0, "\(outcome.error)")
        let echo = try Brick.json(outcome)
        #expect(echo["method"]?.stringValue == "GET")
        #expect(echo["args"]?["name"]?.stringValue == "Ada Lovelace")
        #expect(echo["args"]?["tag"]?.stringValue == "a&b")
        #expect(echo["headers"]?["X-Token"]?.stringValue == "abc")
        #expect(echo["headers"]?["User-Agent"]?.stringValue?.hasPrefix("BrickRequest/") == true)
    }

    @Test func bodyFieldsMakeAJSONObjectWithEveryDigitKeptAndMakeItAPost() async throws {
        let outcome = try await Brick.run(
            try httpbin().url("/anything"), "name=Ada", "id:=12345678901234567890", "price:=19.990", "tags:=[1,2]")
        #expect(outcome.status == 0, "\(outcome.error)")
        let echo = try Brick.json(outcome)
        #expect(echo["method"]?.stringValue == "POST")  // something to send, no method named
        #expect(echo["data"]?.stringValue == #"{"name": "Ada", "id": 12345678901234567890, "price": 19.990, "tags": [1,2]}"#)
        #expect(echo["json"]?["id"]?.uint64Value == 12_345_678_901_234_567_890)
        #expect(echo["headers"]?["Content-Type"]?.stringValue == "application/json")
    }

    @Test func aJSONDocumentIsSentExactlyAsWrittenAndAFormAsAForm() async throws {
        let document = #"{"z": 1, "a": [true, null], "n": 9007199254740993}"#
        let json = try await Brick.run("PUT", try httpbin().url("/anything"), "--json", document)
        #expect(try Brick.json(json)["data"]?.stringValue == document)
        #expect(try Brick.json(json)["method"]?.stringValue == "PUT")

        let form = try await Brick.run("POST", try httpbin().url("/anything"), "--form", "name=Ada Lovelace", "lang=en", "q==1")
        let echo = try Brick.json(form)
        #expect(echo["form"]?["name"]?.stringValue == "Ada Lovelace")
        #expect(echo["form"]?["lang"]?.stringValue == "en")
        #expect(echo["args"]?["q"]?.stringValue == "1")
        #expect(echo["headers"]?["Content-Type"]?.stringValue == "application/x-www-form-urlencoded")
    }

    @Test func basicAndBearerCredentialsAuthenticate() async throws {
        let server = try httpbin()
        let basic = try await Brick.run(server.url("/basic-auth/ada/secret"), "-a", "ada:secret")
        #expect(basic.status == 0, "\(basic.error)")
        #expect(try Brick.json(basic)["user"]?.stringValue == "ada")
        let wrong = try await Brick.run(server.url("/basic-auth/ada/secret"), "-a", "ada:guess")
        #expect(wrong.status == 4)
        let bearer = try await Brick.run(server.url("/bearer"), "-A", "bearer", "-a", "t0ken")
        #expect(bearer.status == 0, "\(bearer.error)")
        #expect(try Brick.json(bearer)["token"]?.stringValue == "t0ken")
        let unnamed = try await Brick.run(server.url("/bearer"), "-a", "no-colon")
        #expect(unnamed.status == 2)
    }

    /// A pipe on standard input is the body (a POST when no method is named, JSON said to be JSON); with
    /// `--ignore-stdin`, or with body fields on the command line, it is not read.
    @Test func aBodyComesFromStandardInputWhenTheCommandLineSendsNone() async throws {
        let url = try httpbin().url("/anything")
        let piped = try await PipedChild.run([try Brick.path(), url], input: Array(#"{"n": 12345678901234567890}"#.utf8))
        #expect(piped.status == 0, "\(piped.error)")
        let echo = try Brick.json(piped)
        #expect(echo["method"]?.stringValue == "POST")
        #expect(echo["data"]?.stringValue == #"{"n": 12345678901234567890}"#)
        #expect(echo["headers"]?["Content-Type"]?.stringValue == "application/json")
        let text = try Brick.json(try await PipedChild.run([try Brick.path(), "PUT", url], input: Array("plain words".utf8)))
        #expect(text["method"]?.stringValue == "PUT" && text["data"]?.stringValue == "plain words")
        #expect(text["headers"]?["Content-Type"] == nil)
        let ignored = try Brick.json(try await PipedChild.run([try Brick.path(), url, "--ignore-stdin"], input: Array("x".utf8)))
        #expect(ignored["method"]?.stringValue == "GET")
        let fields = try Brick.json(try await PipedChild.run([try Brick.path(), url, "a=1"], input: Array("x".utf8)))
        #expect(fields["json"]?["a"]?.stringValue == "1")
    }

    /// `field=@file` and `field:=@file` read a field's text or JSON from a file, `Name:@file` a header's value,
    /// and `field@file` uploads the file as a part of a `multipart/form-data` body.
    @Test func fieldsHeadersAndUploadsComeFromFiles() async throws {
        let directory = try Paths.scratchDirectory("brick-files")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = directory + "/bio.txt", json = directory + "/tags.json", token = directory + "/token"
        try "pioneer of computing".write(toFile: text, atomically: true, encoding: .utf8)
        try "[1, 2]".write(toFile: json, atomically: true, encoding: .utf8)
        try "abc\n".write(toFile: token, atomically: true, encoding: .utf8)
        let url = try httpbin().url("/anything")
        let fields = try Brick.json(try await Brick.run(url, "bio=@" + text, "tags:=@" + json, "X-Token:@" + token))
        #expect(fields["json"]?["bio"]?.stringValue == "pioneer of computing")
        #expect(fields["json"]?["tags"]?[1]?.int64Value == 2)
        #expect(fields["headers"]?["X-Token"]?.stringValue == "abc")
        let upload = try await Brick.run(url, "name=Ada", "bio@" + text)
        #expect(upload.status == 0, "\(upload.error)")
        let echo = try Brick.json(upload)
        #expect(echo["form"]?["name"]?.stringValue == "Ada")
        #expect(echo["files"]?["bio"]?.stringValue == "pioneer of computing")
        #expect(echo["headers"]?["Content-Type"]?.stringValue?.hasPrefix("multipart/form-data; boundary=") == true)
        let missing = try await Brick.run(url, "bio@" + directory + "/none")
        #expect(missing.status != 0)
    }

    @Test func theExitStatusSaysWhatCameBackAndTheBodyIsStillPrinted() async throws {
        let notFound = try await Brick.run(try httpbin().url("/status/404"))
        #expect(notFound.status == 4)
        let unavailable = try await Brick.run(try httpbin().url("/status/503"))
        #expect(unavailable.status == 5)
        let teapot = try await Brick.run(try httpbin().url("/status/418"))
        #expect(teapot.status == 4)
        #expect(teapot.text.contains("teapot"))  // httpbin's body for 418

        let nobody = try await Brick.run("http://127.0.0.1:\(try Sockets.closedPort())/")
        #expect(nobody.status == 1)
        #expect(nobody.error.contains(": connection refused: "), "\(nobody.error)")
        #expect(nobody.output.isEmpty)
    }

    @Test func aCommandLineThatCannotRunIsRefusedBeforeAnythingIsSent() async throws {
        for arguments in [["--json", "{\"a\":", "http://127.0.0.1:1/"], ["http://127.0.0.1:1/", "no-separator"],
                          ["--retry", "forever", "http://127.0.0.1:1/"], ["--timeout", "-1", "http://127.0.0.1:1/"],
                          ["--json", "{}", "http://127.0.0.1:1/", "a=b"], ["--bogus"], []]
        {
            let outcome = try await PipedChild.run([try Brick.path()] + arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.error.hasPrefix("brick: "), "\(arguments): \(outcome.error)")
            #expect(!outcome.error.contains("transport"), "\(arguments): nothing is sent")
        }
        let help = try await Brick.run("--help")
        #expect(help.status == 0)
        #expect(help.text.contains("usage: brick"))
    }

    @Test func jsonIsIndentedOnRequestWithOrderAndDigitsKept() async throws {
        let raw = try await Brick.run("--raw", try nginx().url("/compact.json"))
        #expect(raw.text == Nginx.compactJSON)  // not a terminal: as sent
        let pretty = try await Brick.run("--pretty", try nginx().url("/compact.json"))
        #expect(pretty.text == """
            {
              "zeta": 1,
              "alpha": {
                "list": [
                  12345678901234567890,
                  {},
                  "a,b:{c}"
                ],
                "empty": []
              },
              "s": "q\\"}"
            }

            """)
    }

    @Test func httpsTrustsTheCertificatesItIsGivenAndNothingElse() async throws {
        let server = try nginx()
        let trusted = try await Brick.run("--cacert", server.certificatePath, server.tlsURL("/small"))
        #expect(trusted.status == 0, "\(trusted.error)")
        #expect(trusted.text == String(repeating: "x", count: 100))

        let untrusted = try await Brick.run(server.tlsURL("/small"))
        #expect(untrusted.status == 1)
        #expect(untrusted.error.contains("tls") || untrusted.error.contains("TLS") || untrusted.error.contains("certificate"),
                "\(untrusted.error)")
        #expect(untrusted.output.isEmpty)
    }
}
