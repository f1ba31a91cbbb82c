import BrickCassette
import BrickRequest
import Foundation
import LoopbackServer
import Testing
import TestServers

/// A secret in every place a recording meets one that a list of names does not cover: URLs in answers'
/// fields, field names nobody listed, JSON in unusual dress, forms, binary bodies, user names, path
/// parameters, and a value one answer hands out that the next request sends. None of them may reach the
/// cassette; the bearer token and the cookie are the controls (redacted before this round too).
@Suite struct RedactionProbeTests {
    /// Each probe's secret, by what it probes.
    static let probes: [String: String] = [
        "302 Location ?code=": "P01-oauth-code", "X-Amz-Signature": "P02-amz-signature", "X-Amz-Credential": "P03-amz-credential",
        "X-Amz-Security-Token": "P04-amz-security-token", "#access_token=": "P05-fragment-token", "Link ?token=": "P06-link-token",
        "X-Vault-Token": "P07-vault-token", "Private-Token": "P08-private-token", "apikey": "P09-apikey-field",
        "X-Amz-Security-Token field": "P10-amz-field", "response X-Subject-Token": "P11-subject-token", "camelCase AccessToken": "P12-camel-case",
        "JSON after a BOM": "P13-after-bom", "JSON after an XSSI prefix": "P14-after-xssi", "JSON in a string": "P15-json-in-string",
        "an array under a secret name": "P16-array-first", "its second element": "P17-array-second", "a multipart field": "P18-multipart-field",
        "a binary body echoing the token": "P19-binary-echo", "a token as the URL's user name": "P20-user-name-token",
        "a ;token= path parameter": "P21-path-parameter", "a value learned in one entry and sent in the next": "P22-learned-then-sent",
        "a form's code": "P23-form-code", "Refresh url= with a query token": "P24-refresh-token",
        "control: bearer token": "C01-bearer-control", "control: cookie": "C02-cookie-control",
    ]
    static func secret(_ probe: String) -> String { probes[probe]! }  // the table above names every probe asked for

    /// The server: each path answers with the secrets of its probes.
    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.path {
            case "/authorize":
                return ServerResponse(status: 302, headers: [("Location", "/callback?code=\(secret("302 Location ?code="))&state=s")])
            case "/callback", "/form":
                return .text("ok")
            case "/presigned":
                let query = "X-Amz-Signature=\(secret("X-Amz-Signature"))&X-Amz-Credential=\(secret("X-Amz-Credential"))"
                    + "&X-Amz-Security-Token=\(secret("X-Amz-Security-Token"))&X-Amz-Date=20261202"
                return ServerResponse(headers: [
                    ("Content-Location", "https://bucket.example/object?\(query)"),
                    ("Link", "</page?token=\(secret("Link ?token="))>; rel=\"next\""),
                    ("Refresh", "0; url=/next?session=\(secret("Refresh url= with a query token"))#access_token=\(secret("#access_token="))"),
                    ("X-Subject-Token", secret("response X-Subject-Token")),
                ], body: Array("presigned".utf8))
            case "/json":
                let bodies = [
                    #"{"AccessToken":"\#(secret("camelCase AccessToken"))","page":1}"#,
                    "\u{FEFF}" + #"{"refresh_token":"\#(secret("JSON after a BOM"))"}"#,
                    ")]}'\n" + #"{"id_token":"\#(secret("JSON after an XSSI prefix"))"}"#,
                    #"{"payload":"{\"access_token\":\"\#(secret("JSON in a string"))\"}"}"#,
                    #"{"tokens":["\#(secret("an array under a secret name"))","\#(secret("its second element"))"],"count":2}"#,
                ]
                return .json(bodies[Int(request.query.dropFirst(2)) ?? 0])
            case "/binary":
                let token = request.header("Authorization")?.split(separator: " ").last.map(String.init) ?? ""
                return ServerResponse(headers: [("Content-Type", "application/octet-stream")], body: [0, 0xFF, 0xFE] + Array(token.utf8) + [0])
            case "/learn":
                return ServerResponse(headers: [("X-Session-Ref", secret("a value learned in one entry and sent in the next"))], body: Array("learned".utf8))
            default:
                return .text("echo " + request.path)
            }
        }
    }

    @Test func noProbeReachesTheCassette() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let path = try scratchCassette("probes.har")
        let recording = try Cassette(path, mode: .record)
        let session = recording.session(like: Session())
        let base = server.baseURL
        let port = String(base.split(separator: ":").last ?? "")
        let boundary = "brick-probe-boundary"
        let multipart = "--\(boundary)\r\nContent-Disposition: form-data; name=\"user\"\r\n\r\nada\r\n--\(boundary)\r\n"
            + "Content-Disposition: form-data; name=\"password\"\r\n\r\n\(Self.secret("a multipart field"))\r\n--\(boundary)--\r\n"
        let calls = [
            Call(base + "/authorize", session: session),
            Call(base + "/presigned", session: session),
            Call(base + "/fields", session: session, headers: [
                "X-Vault-Token": Self.secret("X-Vault-Token"), "Private-Token": Self.secret("Private-Token"), "apikey": Self.secret("apikey"),
                "X-Amz-Security-Token": Self.secret("X-Amz-Security-Token field"),
                "Authorization": "Bearer \(Self.secret("control: bearer token"))", "Cookie": "sid=\(Self.secret("control: cookie"))",
            ]),
        ] + (0..<5).map { Call(base + "/json?n=\($0)", session: session) } + [
            Call(base + "/upload", method: .post, session: session, body: Data(multipart.utf8), contentType: "multipart/form-data; boundary=\(boundary)"),
            Call(base + "/binary", session: session, headers: ["Authorization": "Bearer \(Self.secret("a binary body echoing the token"))"]),
            Call("http://\(Self.secret("a token as the URL's user name"))@127.0.0.1:\(port)/user", session: session),
            Call(base + "/files;token=\(Self.secret("a ;token= path parameter"))/report", session: session),
            Call(base + "/learn", session: session),
            Call(base + "/items/\(Self.secret("a value learned in one entry and sent in the next"))", session: session),
            Call(base + "/form", method: .post, session: session, body: Data("grant_type=authorization_code&code=\(Self.secret("a form's code"))".utf8),
                 contentType: "application/x-www-form-urlencoded"),
        ]
        for call in calls {
            let response = await call.dataResponse()
            #expect(response.response?.head.status == 200, "\(call.URLString): \(response.error.map { "\($0)" } ?? "")")
        }
        try recording.save()

        let written = try Self.everythingWritten(path)
        let leaked = Self.probes.filter { written.contains($0.value) }.keys.sorted()
        #expect(leaked == [], "in the cassette: \(leaked)")
        #expect(written.contains("Bearer <redacted>"))
        #expect(written.contains("/files;token=%3Credacted%3E/report"))
        #expect(written.contains("X-Amz-Date=20261202"))  // what is not secret stays

        // The redacted cassette still answers the same calls, with no network.
        let replay = try Cassette(path, mode: .replay)
        let replaying = replay.session(like: Session())
        for call in calls {
            let again = Call(call.URLString, method: call.method, session: replaying, headers: call.headers, body: call.rawBodyData,
                             contentType: call.rawBodyContentType)
            _ = await again.dataResponse()
        }
        #expect(replay.mismatches.map(\.description) == [])
    }

    /// The cassette's text, and the bodies it keeps in base64 decoded.
    static func everythingWritten(_ path: String) throws -> String {
        let data = try #require(FileManager.default.contents(atPath: path))
        var written = String(decoding: data, as: UTF8.self)
        let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entries = (file["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
        for entry in entries {
            let content = (entry["response"] as? [String: Any])?["content"] as? [String: Any]
            if content?["encoding"] as? String == "base64", let text = content?["text"] as? String, let bytes = Data(base64Encoded: text) {
                written += String(decoding: bytes, as: UTF8.self)
            }
        }
        return written
    }
}
