@testable import BrickCassette
@testable import BrickCookies
@testable import BrickCore
@testable import BrickCurl
@testable import BrickTransport
@testable import Bricks
import CCurl
import CNetlink
import Foundation

/// libFuzzer's entry point: one input for the parser `BRICK_FUZZ_TARGET` names (see ``FuzzTarget``).
/// Built only with `BRICK_FUZZ=1` and `--sanitize=fuzzer` (`make fuzz`): libFuzzer supplies `main`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.selected.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// Every parser of server or caller input, each with the properties it must keep on any input. A broken
/// property stops the fuzzer (`precondition`), like a crash does.
enum FuzzTarget: String, CaseIterable {
    case head, dates, cache, range, diskEntry, resume, url, headers, redaction, multipart, netlink, json, events, cookies, codings,
        cassette, percent, websocket

    static let selected = FuzzTarget(rawValue: ProcessInfo.processInfo.environment["BRICK_FUZZ_TARGET"] ?? "") ?? {
        fatalError("set BRICK_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue))")
    }()

    func run(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        switch self {
        case .head: Self.head(bytes)
        case .dates:
            _ = HTTPDate.parse(text)
            if let delay = RetryAfter.delay(text, reference: Date(timeIntervalSince1970: 0)) {
                precondition(delay >= .zero && delay <= .seconds(RetryAfter.longest), "Retry-After out of bounds")
            }
        case .cache: Self.cache(text)
        case .range:
            if let range = ContentRange(text) {
                precondition(range.first >= 0 && range.last >= range.first && range.end > range.last, "bad range")
                if let complete = range.complete { precondition(complete > range.last, "range past its length") }
            }
        case .diskEntry: _ = DiskResponseCache.decode(Data(bytes), key: "GET http://h/")
        case .resume:
            _ = try? JSONDecoder().decode(ResumeRecord.self, from: Data(bytes))
            _ = ResumeRecord.validator(of: ResponseHead(status: 200, headers: ["ETag": text, "Last-Modified": text]))
        case .url: Self.url(text)
        case .headers: Self.headers(text)
        case .redaction:
            let redaction = Redaction()
            let once = redaction.url(text)
            precondition(redaction.url(once) == once, "redaction is not stable")
        case .multipart:
            let escaped = MultipartFormData.escape(text)
            precondition(!escaped.contains("\"") && !escaped.contains("\r") && !escaped.contains("\n"), "name escapes its quotes")
        case .netlink: Self.netlink(bytes)
        case .json: Self.json(Data(bytes))
        case .events: Self.events(bytes)
        case .cookies: Self.cookies(text)
        case .codings: Self.codings(bytes)
        case .cassette: Self.cassette(Data(bytes))
        case .percent: Self.percent(text)
        case .websocket: Self.webSocket(bytes)
        }
    }

    /// Percent-encoding, whose escapes are counted in vector compares 32 bytes at a time: the result is the
    /// definition applied byte by byte, whatever the length and wherever the bytes to escape fall.
    static func percent(_ text: String) {
        var expected: [UInt8] = []
        for byte in text.utf8 {
            let unreserved = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if unreserved {
                expected.append(byte)
            } else {
                expected += Array("%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)).map { $0.asciiValue ?? 0 }
            }
        }
        precondition(Array(PercentEncoding.encode(text).utf8) == expected, "percent-encoding differs from its definition")
    }

    /// A body in content codings: the first byte picks the codings (each of the four, chains of two and of
    /// three stacked on each other) and the size of the pieces it arrives in. Decoding ends, with body or a
    /// typed error; no step gives more than it was asked for, nor works much past its budget; and no layer's
    /// output grows without the decoder counting it (a bomb in an inner layer is seen).
    static func codings(_ bytes: UnsafeRawBufferPointer) {
        guard let first = bytes.first else { return }
        let names = ["gzip", "deflate", "br", "zstd", "zstd, gzip", "gzip, deflate", "br, zstd", "x-unknown",
                     "deflate, gzip, gzip", "gzip, gzip, gzip", "br, gzip, gzip"]
        guard let codings = ContentDecoder.codings([names[Int(first) % names.count]]) else { return }
        guard let decoder = ContentDecoder(codings) else { return }
        let piece = 1 + Int(first >> 3)
        var offset = 1
        var total = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
            do {
                decoding: while true {
                    var budget = 1 << 16
                    switch try decoder.decode(atMost: 4096, budget: &budget) {
                    case .body(let decoded):
                        precondition(!decoded.isEmpty && decoded.count <= 4096, "a step gave more than asked")
                        total += decoded.count
                    case .yielded: break
                    case .needsInput: break decoding
                    }
                    // One step of a layer may overrun the budget by at most its input and its output.
                    precondition(budget > -(1 << 20), "a step worked far past its budget")
                    if decoder.mostProducedByALayer > 64 << 20 { return }  // a bomb: the engine's checks end it
                }
            } catch {
                return
            }
            precondition(total <= decoder.mostProducedByALayer, "a layer's output was not counted")
            precondition(!decoder.hasPendingInput, "input left behind with room to decode it")
        }
    }

    /// `Set-Cookie` and the cookie file: a cookie kept belongs to the request's host (or a parent domain of
    /// it), lives at most 400 days, and a file written from it reads back the same.
    static func cookies(_ text: String) {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        if let cookie = SetCookie.parse(text, host: "a.example.com", path: "/p/q", https: true, now: now) {
            precondition(cookie.domain == "a.example.com" || "a.example.com".hasSuffix("." + cookie.domain), "a foreign domain")
            precondition(cookie.expires.map { $0 <= now.addingTimeInterval(SetCookie.longestLife) } ?? true, "an unbounded life")
            precondition(cookie.path.hasPrefix("/"), "a path that is not one")
            if cookie.expires.map({ $0 > now }) ?? false {
                let reread = NetscapeCookieFile.read(NetscapeCookieFile.write([cookie]), now: now)
                precondition(reread.count == 1 && reread[0].name == cookie.name && reread[0].value == cookie.value
                    && reread[0].domain == cookie.domain && reread[0].path == cookie.path, "the file does not read back")
            }
        }
        _ = NetscapeCookieFile.read(text, now: now)
    }

    /// The event-stream parser: the same events whether the input comes whole or cut in two at its middle
    /// (also between a CR and its LF, or inside a UTF-8 character), no line or data past the size bound,
    /// and a reconnection time within a day.
    static func events(_ bytes: UnsafeRawBufferPointer) {
        let input = Array(bytes)
        var whole = ServerSentEventParser(maxEventSize: 4096)
        var halves = ServerSentEventParser(maxEventSize: 4096)
        let all = try? whole.feed(input)
        let first = try? halves.feed(input[..<(input.count / 2)])
        let second = first == nil ? nil : try? halves.feed(input[(input.count / 2)...])
        if let all, let first, let second {
            precondition(all == first + second, "events depend on where the body was cut")
            precondition(all.allSatisfy { $0.data.utf8.count < 4096 }, "an event past the size bound")
        }
        if let time = whole.reconnectionTime { precondition(time >= .zero && time <= .seconds(86_400), "retry out of bounds") }
    }

    /// The JSON parser: any input is a value or a typed error; a value reads back the same once written
    /// out (its description, for the values JSON can write) and every number's text is a JSON number.
    static func json(_ data: Data) {
        guard let value = try? JSON.parse(data) else { return }
        func check(_ value: JSON) {
            switch value {
            case .number(let number): precondition(JSONNumber(text: number.text) != nil, "a number that is not JSON")
            case .array(let elements): elements.forEach(check)
            case .object(let members): members.values.forEach(check)
            default: break
            }
        }
        check(value)
        if let reread = try? JSON.parse(Data(value.description.utf8)) {
            precondition(reread == value, "a value that does not read back as itself")
        }
    }

    /// Lines (split at LF, as libcurl hands them over) into the head parser: it counts every byte, and
    /// once the final head is complete nothing changes it. A second parser gathers the field lines in a
    /// small room lent to it (as an easy handle lends its own), given back at the input's first byte's
    /// line count: both make the same head.
    static func head(_ bytes: UnsafeRawBufferPointer) {
        var parser = HeadParser()
        let room = UnsafeMutableRawBufferPointer.allocate(byteCount: 48, alignment: 8)
        defer { room.deallocate() }
        var lent = HeadParser(room: room)
        let giveBackAfter = bytes.first.map(Int.init) ?? 0
        var start = 0, line = 0
        var finalHead: ResponseHead?
        for index in bytes.indices where bytes[index] == 0x0A || index == bytes.count - 1 {
            parser.feed(UnsafeRawBufferPointer(rebasing: bytes[start...index]))
            lent.feed(UnsafeRawBufferPointer(rebasing: bytes[start...index]))
            if line == giveBackAfter { lent.releaseRoom() }
            start = index + 1
            line += 1
            precondition(lent.head == parser.head, "the room changed the head")
            if parser.finalHeadComplete {
                if let finalHead { precondition(parser.head == finalHead, "a trailer changed the head") }
                finalHead = parser.head
            }
        }
        lent.releaseRoom()
        precondition(lent.head == parser.head, "giving the room back changed the head")
        precondition(parser.byteCount == bytes.count, "bytes miscounted")
    }

    /// Lines of `name: value` as a cached response's and a request's fields: every rule gives a finite answer.
    static func cache(_ text: String) {
        var headers = HTTPHeaders()
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers.add(name: String(parts[0]), value: String(parts[1])) }
        }
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let entry = CachedResponse(status: 200, headers: headers, body: Data(), requestTime: now, responseTime: now, varyingFields: [:])
        let request = TransportRequest(url: "http://h/", headers: headers)
        _ = CachePolicy.isStorable(entry.head, for: request)
        let lifetime = CachePolicy.freshnessLifetime(entry)
        let age = CachePolicy.currentAge(entry, now: now.addingTimeInterval(60))
        precondition(lifetime.isFinite && lifetime >= 0 && age.isFinite && age >= 0, "freshness arithmetic left the finite numbers")
        _ = CachePolicy.isFresh(entry, for: request, now: now)
        // Ranges: what a request asks for lies within the representation, a part's extent within its length,
        // and a part cut from a stored body has the bytes its `Content-Range` says.
        let body = Data(repeating: 0x61, count: 10)
        let part = CachedResponse(status: 206, headers: headers, body: body, requestTime: now, responseTime: now, varyingFields: [:])
        for length in [1, 10, 1 << 20] {
            if let range = PartialContent.requested(by: request, length: length) {
                precondition(range.lowerBound >= 0 && range.upperBound < length, "a requested range past the representation")
            }
        }
        if let extent = PartialContent.extent(of: part) {
            precondition(extent.range.count == body.count && extent.range.upperBound < extent.length, "a part that does not add up")
            if let range = PartialContent.requested(by: request, length: extent.length),
               let answer = PartialContent.answer(range, from: part, now: now) {
                precondition(answer.body.count == range.count, "a cut part of the wrong size")
            }
            if let joined = PartialContent.combined(part, with: part) {
                precondition(joined.body.count == body.count, "a part joined to itself changed size")
            }
        }
    }

    /// URL validation agrees with libcurl's parser: a URL the transport accepts, libcurl parses; its host is
    /// found; a redirect resolved against it is absolute.
    static func url(_ text: String) {
        var bytes = text
        bytes.withUTF8 { url in
            guard TransportRequest.isPlainValid(url), case .valid(nonASCII: false) = TransportRequest.checkInFull(url: url) else {
                precondition(!TransportRequest.isPlainValid(url), "the one-pass URL check accepts what the full check refuses")
                return
            }
        }
        let request = TransportRequest(url: text)
        if (try? request.validate()) != nil {
            precondition(TransportRequest.host(of: text) != nil, "a valid URL without a host")
            let handle = curl_url()
            defer { curl_url_cleanup(handle) }
            let code = curl_url_set(handle, CURLUPART_URL, text, UInt32(CURLU_NON_SUPPORT_SCHEME))
            precondition(code == CURLUE_OK, "libcurl refuses a URL the transport accepts")
            // The host a cookie is judged by is the one libcurl connects to (an IPv4 address in any of its forms).
            var part: UnsafeMutablePointer<CChar>?
            if let host = TransportRequest.host(of: text), !host.contains(":"),
               curl_url_get(handle, CURLUPART_HOST, &part, 0) == CURLUE_OK, let part {
                defer { curl_free(part) }
                precondition((IPv4Literal.normalized(host) ?? host) == String(cString: part).lowercased(), "a host judged apart from libcurl's")
            }
        }
        _ = TransportRequest.forMessages(text)
        if let next = RedirectLocation.resolve(text, against: "https://h.test:8443/a/b?c") {
            precondition(next.contains("://"), "a resolved location is not absolute")
            precondition(!next.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }), "a control byte in a resolved location")
        }
    }

    /// A field the transport accepts cannot add a line or another field on the wire.
    static func headers(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let field = HTTPHeaders.Field(name: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : "")
        guard (try? HTTPHeaders([field]).validate()) != nil else { return }
        precondition(!field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }), "a line break passed")
        precondition(!field.name.isEmpty && !field.name.utf8.contains(0x3A), "a bad name passed")
    }

    /// Netlink messages, copied to a buffer of exactly their length, through both parsers.
    static func netlink(_ bytes: UnsafeRawBufferPointer) {
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        defer { copy.deallocate() }
        if let base = bytes.baseAddress { copy.copyMemory(from: base, byteCount: bytes.count) }
        _ = brick_nl_count_changes(copy, bytes.count)
        var route = brick_route()
        _ = brick_nl_parse_route(copy, bytes.count, &route)
    }

    /// A cassette (a HAR file): read and checked, or refused with a typed error; every entry it accepts gives
    /// its bodies and its outcome, and redacts without a trap; a redacted entry's scrubbed values are gone.
    static func cassette(_ data: Data) {
        guard let file = try? HAR.File.decode(data, path: "fuzz.har") else { return }
        for entry in file.log.entries {
            _ = try? entry.responseBody()
            _ = try? entry.requestBody()
            _ = entry.outcome()
            var secrets = SecretValues()
            let redaction = CassetteRedaction()
            let redacted = entry.redacted(by: redaction, noting: &secrets).scrubbed(by: Scrubber(secrets))
            for field in redacted.request.headers where redaction.isSecretHeader(field.name) {
                precondition(field.value.contains(CassetteRedaction.marker) || field.value.isEmpty || !field.value.contains("="),
                             "a secret field kept its value")
            }
            if let text = entry.response.content.text {
                let bytes = Array(text.utf8)
                for range in MemberScanner(bytes: bytes).secretValues(isSecret: redaction.isSecretMember).ranges {
                    precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "a range outside the text")
                }
            }
        }
    }
}
