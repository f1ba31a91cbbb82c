@testable import BrickTransport
import Foundation
import Testing

@Suite struct HTTPHeadersTests {
    @Test func looksUpNamesCaseInsensitively() {
        let headers: HTTPHeaders = ["Content-Type": "text/plain"]
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["CONTENT-TYPE"] == "text/plain")
    }

    @Test func foldsOnlyLetterCase() {
        let headers: HTTPHeaders = ["X-[a]": "brackets", "x-@": "at"]
        #expect(headers["x-[A]"] == "brackets")
        #expect(headers["X-{a}"] == nil)
        #expect(headers["X-`"] == nil)
        #expect(headers["X-@"] == "at")
        #expect(headers["X-A"] == nil)
    }

    @Test func settingReplacesEveryFieldOfThatNameInPlace() {
        var headers = HTTPHeaders()
        headers.add(name: "A", value: "1")
        headers.add(name: "X", value: "1")
        headers.add(name: "B", value: "2")
        headers.add(name: "x", value: "2")
        headers["X"] = "3"
        #expect(headers.fields.map(\.name) == ["A", "X", "B"])
        #expect(headers.values(for: "x") == ["3"])
        headers["x"] = nil
        #expect(headers.fields.map(\.name) == ["A", "B"])
    }

    @Test func mergeLetsTheOtherSideWin() {
        var base: HTTPHeaders = ["User-Agent": "a", "Accept": "*/*"]
        base.merge(["user-agent": "b", "X-New": "1"])
        #expect(base["User-Agent"] == "b")
        #expect(base["Accept"] == "*/*")
        #expect(base["X-New"] == "1")
        #expect(base.count == 3)
    }

    @Test(arguments: ["a\r\nb", "a\nb", "a\rb", "a\u{0}b"])
    func refusesControlCharactersInValues(value: String) {
        let headers: HTTPHeaders = ["X": value]
        #expect(throws: TransportError.self) { try headers.validate() }
    }

    /// Each framing field's name is refused in lower, upper and mixed case; a name of the same length that
    /// differs in one byte (a letter, or `-` for `_`) passes, as do the other fields of a default request.
    @Test func framingNamesAreRefusedInAnyCaseAndOnlyThey() throws {
        for name in HTTPHeaders.framingFieldNames {
            let mixed = String(name.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element })
            for variant in [name, name.uppercased(), mixed] {
                let error = try #require(throws: TransportError.self, "\(variant)") { try HTTPHeaders([.init(name: variant, value: "1")]).validate() }
                #expect(error.kind == .invalidHeader)
            }
            for index in name.indices {
                var near = name
                near.replaceSubrange(index...index, with: name[index] == "-" ? "_" : name[index] == "z" ? "y" : "z")
                #expect(throws: Never.self, "\(near)") { try HTTPHeaders([.init(name: near, value: "1")]).validate() }
            }
        }
        #expect(throws: Never.self) { try (["User-Agent": "x", "Accept-Encoding": "gzip", "Keep-Alivf": "1"] as HTTPHeaders).validate() }
    }

    @Test(arguments: ["", "Bad Name", "Colon:", "Ünicode", "a\r\nb"])
    func refusesNamesThatAreNotTokens(name: String) throws {
        var headers = HTTPHeaders()
        headers.add(name: name, value: "v")
        let error = try #require(throws: TransportError.self) { try headers.validate() }
        #expect(error.kind == .invalidHeader)
    }

    @Test func acceptsOrdinaryHeaders() throws {
        let headers: HTTPHeaders = ["X-Custom_Header.1": "value with spaces, commas; and \"quotes\"", "Accept": ""]
        try headers.validate()
    }
}

@Suite struct TransportRequestTests {
    @Test(arguments: [
        "http://127.0.0.1/", "https://example.com/a?b=c#d", "HTTP://EXAMPLE.COM", "https://[::1]:8443/", "HtTpS://a",
        "http://[::ffff:127.0.0.1]:80/", "http://[fe80::1%25eth0]/", "http://h:65535/", "http://u:p@h:1/", "http://[1:2:3:4:5:6:7:8]/",
        "http://h/caf\u{E9}", "http://h/%CC%87", "http://[::%25abcdefghijklmno]/", "http://[::%25]/", "http://[::%252]/",
    ])
    func acceptsHTTPURLs(url: String) throws {
        try TransportRequest(url: url).validate()
    }

    /// A relative URL (a path with no base URL to resolve it against) says how to give one.
    @Test func aRelativeURLSaysHowToGiveItABase() throws {
        let error = try #require(throws: TransportError.self) { try TransportRequest(url: "/users/1").validate() }
        #expect(error.kind == .invalidURL)
        #expect("\(error)".contains("Session.Configuration.baseURL"), "\(error)")
    }

    @Test(arguments: [
        ("ftp://example.com/", TransportError.Kind.unsupportedScheme), ("file:///etc/passwd", .unsupportedScheme),
        ("example.com/path", .invalidURL), ("http://", .invalidURL), ("http:///path", .invalidURL),
        ("http://exa mple.com/", .invalidURL), ("http://example.com/\r\nX: y", .invalidURL), ("", .invalidURL),
        ("httpx://a/", .unsupportedScheme), ("ht tp://a/", .invalidURL), ("http:/a", .invalidURL), (":a", .invalidURL),
        ("http:", .invalidURL), ("http://a/\u{7F}", .invalidURL),
        // Found by the fuzzer (Tests/Fuzz/Corpus/url/regression-ipv6): hosts and ports libcurl's parser refuses.
        ("HTTPS://[:::1]:844/x", .invalidURL), ("http://[1::2::3]/", .invalidURL), ("http://[::1]x/", .invalidURL),
        ("http://[12345::1]/", .invalidURL), ("http://h:99999/", .invalidURL), ("http://h:8a/", .invalidURL),
        ("http://:80/", .invalidURL), ("http://[1:2:3:4:5:6:7:8:9]/", .invalidURL), ("http://@127b=c?b=c", .invalidURL),
        ("http://a+b/", .invalidURL), ("http://a%41/", .invalidURL), ("http://u@/", .invalidURL), ("http://@12b@12", .invalidURL),
        // Found by the fuzzer (regression-zone-length): libcurl reads an IPv6 zone of 1 to 15 bytes only.
        ("http://[::%25abcdefghijklmnop]/", .invalidURL), ("http://[::%abcdefghijklmnop]/", .invalidURL), ("http://[::%]/", .invalidURL),
        // Found by the fuzzer (regression-combining): a combining mark joins the `/` before it into one character,
        // which then is no `/` for code that reads the URL by characters.
        ("http://\u{0307}7\u{FFFD}/", .invalidURL), ("https://h/?\u{0301}token=x", .invalidURL), ("http://h\u{200D}/", .invalidURL),
    ])
    func refusesOtherURLs(url: String, kind: TransportError.Kind) throws {
        let error = try #require(throws: TransportError.self) { try TransportRequest(url: url).validate() }
        #expect(error.kind == kind)
    }

    /// The one-pass check of the usual URL accepts nothing the full check refuses: every byte at every
    /// position of a few usual URLs, each changed URL judged both ways.
    @Test(arguments: ["http://a.b-c_d:8080/p?q#f", "HTTPS://X:65535", "http://h:00065/", "https://h?x"])
    func theOnePassCheckAcceptsOnlyWhatTheFullCheckAccepts(seed: String) {
        var accepted = 0
        for position in 0..<seed.utf8.count {
            for byte in UInt8.min...UInt8.max {
                var bytes = Array(seed.utf8)
                bytes[position] = byte
                bytes.withUnsafeBufferPointer { url in
                    guard TransportRequest.isPlainValid(url) else { return }
                    accepted += 1
                    guard case .valid(nonASCII: false) = TransportRequest.checkInFull(url: url) else {
                        Issue.record("the one-pass check accepts \(String(decoding: url, as: UTF8.self).debugDescription)")
                        return
                    }
                }
            }
        }
        #expect(accepted > seed.utf8.count, "the one-pass check took the usual URLs")
    }

    @Test func refusesAMethodThatIsNotAToken() throws {
        let error = try #require(throws: TransportError.self) {
            try TransportRequest(method: HTTPMethod("GET /x HTTP/1.1\r\n"), url: "http://a/").validate()
        }
        #expect(error.kind == .invalidRequest)
    }

    @Test func parametersGoInTheQueryOnlyForGETHeadAndDelete() {
        let inQuery = [HTTPMethod.get, .head, .delete, .post, .put, .patch, .options, .trace, .connect]
            .filter { $0.encodesParametersInQuery }
        #expect(inQuery == [.get, .head, .delete])
    }

    /// RFC 9110 §9.2: what each standard method is, the same whether it is one of the constants or made
    /// from its name; any other token is none of these, and a name is case-sensitive.
    @Test func eachMethodIsSafeIdempotentAndATokenAsRFC9110Says() {
        let standard = ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE", "POST", "PATCH", "CONNECT"]
        let made = standard.map(HTTPMethod.init(rawValue:))
        #expect(made == [.get, .head, .options, .trace, .put, .delete, .post, .patch, .connect])
        #expect(made.filter(\.isSafe).map(\.rawValue) == ["GET", "HEAD", "OPTIONS", "TRACE"])
        #expect(made.filter(\.isIdempotent).map(\.rawValue) == ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"])
        #expect(made.allSatisfy { $0.isValidToken })
        for other in [HTTPMethod("PURGE"), HTTPMethod("get"), HTTPMethod("M-SEARCH")] {
            #expect(other.isValidToken && !other.isSafe && !other.isIdempotent && !other.encodesParametersInQuery)
        }
        for invalid in ["", "GET /", "A\r\nB", "é"] { #expect(!HTTPMethod(invalid).isValidToken) }
    }
}

@Suite struct RequestHostTests {
    @Test(arguments: [
        ("http://Example.COM/path", "example.com"),
        ("https://user:pw@api.test:8443/x?y#z", "api.test"),
        ("http://127.0.0.1:8080", "127.0.0.1"),
        ("http://[::1]:80/", "::1"),
        ("https://host?query", "host"),
    ])
    func theHostIsTheAuthorityWithoutUserPortOrBrackets(url: String, host: String) {
        #expect(TransportRequest(url: url).host == host)
    }

    @Test(arguments: ["not a url", "http://", "http:///path", "http://[::1"])
    func aUrlWithoutAHostHasNone(url: String) {
        #expect(TransportRequest(url: url).host == nil)
    }

    /// A list validated once (a session's headers) is not checked again with every request, but every way of
    /// changing it brings the changed fields under the check again.
    @Test func aValidatedListIsCheckedAgainWhereverItChanges() throws {
        let valid = (["User-Agent": "a", "X-Key": "k"] as HTTPHeaders).validatedForReuse()
        #expect(throws: Never.self) { try valid.validate() }
        let injected = "v\r\nX-Evil: 1"
        var changed = valid
        changed["X-Key"] = injected
        #expect(throws: TransportError.self) { try changed.validate() }
        changed = valid
        changed.add(name: "X-New", value: injected)
        #expect(throws: TransportError.self) { try changed.validate() }
        changed = valid
        changed.appendToLastValue(injected)
        #expect(throws: TransportError.self) { try changed.validate() }
        changed = valid
        changed.merge(["user-agent": injected])
        #expect(throws: TransportError.self) { try changed.validate() }
        changed = valid
        changed.merge(["X-Other": injected])
        #expect(throws: TransportError.self) { try changed.validate() }
        changed = valid
        changed["User-Agent"] = nil
        changed.add(name: "Connection", value: "close")
        #expect(throws: TransportError.self) { try changed.validate() }
        // A field the library adds from a constant counts as validated only after validated fields.
        var known = HTTPHeaders()
        known.addValidated(name: "Content-Type", value: "application/json")
        #expect(known.validatedCount == 1)
        changed = ["X-Bad": injected]
        changed.addValidated(name: "Content-Type", value: "application/json")
        #expect(changed.validatedCount == 0)
        #expect(throws: TransportError.self) { try changed.validate() }
        changed = known
        changed.add(name: "X-New", value: injected)
        #expect(throws: TransportError.self) { try changed.validate() }
        // A list that fails is not marked: it fails with every request.
        let invalid = (["X-Bad": injected] as HTTPHeaders).validatedForReuse()
        #expect(throws: TransportError.self) { try invalid.validate() }
        // Being validated changes neither equality nor what is encoded.
        #expect(valid == ["User-Agent": "a", "X-Key": "k"])
        let decoded = try JSONDecoder().decode(HTTPHeaders.self, from: try JSONEncoder().encode(valid))
        #expect(decoded == valid)
    }
}

/// A response's fields read out of the lines they arrived in: a lookup judges each line by its first bytes,
/// and finds what a list of fields would.
@Suite struct RawFieldLookupTests {
    static func fields(_ lines: [String]) -> HTTPHeaders {
        var raw = RawFields(capacity: 0)
        for line in lines { line.utf8.withContiguousStorageIfAvailable { raw.append(line: UnsafeRawBufferPointer($0)) } }
        return HTTPHeaders(raw: raw)
    }

    @Test func aLookupFindsTheFieldWhateverItsCaseBlanksOrNeighbours() {
        let headers = Self.fields(["ETagged: no", "etag:\"a\"", "  Vary :  Accept ", "X-Empty:", "Set-Cookie: a=1", "SET-COOKIE:b=2", "ETag: \"b\""])
        #expect(headers["ETag"] == "\"a\"")
        #expect(headers["Vary"] == "Accept")
        #expect(headers["X-Empty"] == "")
        #expect(headers["ETagg"] == nil && headers["ETa"] == nil && headers["Missing"] == nil)
        #expect(headers.values(for: "set-cookie") == ["a=1", "b=2"])
        #expect(headers.values(for: "ETag") == ["\"a\"", "\"b\""])
        #expect(headers.contains(name: "x-empty") && !headers.contains(name: "X-Emp"))
    }
}

/// `print` of a response shows what a reader looks for: the status, the body's length and the call.
@Suite struct TransportResponseDescriptionTests {
    @Test func aResponsePrintsItsStatusLengthAndCall() {
        var response = TransportResponse(head: ResponseHead(status: 404, headers: ["Content-Type": "text/plain"]), body: Data("gone".utf8))
        #expect(response.description == "404, 4 bytes")
        response.call = CallLine(TransportRequest(url: "https://api.test/users?token=s3cret"))
        #expect(response.description == "404, 4 bytes (GET \"https://api.test/users…\")")
        #expect(!response.description.contains("s3cret"))
        #expect(response.debugDescription.contains("HTTP/1.1, 1 header field)"))
        #expect(String(describing: TransportResponse(head: ResponseHead(status: 200), body: Data([1]))) == "200, 1 byte")
    }
}
