/// The URL check behind ``TransportRequest/validate()``: byte by byte on the URL's contiguous UTF-8, so that
/// it allocates nothing on the good path (it runs for every request). What it accepts, libcurl's URL parser
/// accepts too (the `url` fuzz target compares them).
extension TransportRequest {
    /// Whether `byte` may appear in a URL scheme (RFC 3986: letters, digits, `+`, `-`, `.`).
    static func isSchemeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// What ``validate()`` found wrong with a URL, if anything.
    enum URLVerdict {
        /// `nonASCII`: the URL holds bytes past ASCII, to be checked as characters (``hasOneScalarPerCharacter(_:)``).
        case valid(nonASCII: Bool), notAbsolute, scheme(String), noHost, controlCharacter, badAuthority
    }

    /// Checks a URL's bytes: an http or https scheme (any case), `://`, a host, no space or control byte.
    /// The usual URL is recognized in one pass first (``isPlainValid(_:)``); any other goes through every
    /// step of ``checkInFull(url:)``.
    static func check(url bytes: UnsafeBufferPointer<UInt8>) -> URLVerdict {
        isPlainValid(bytes) ? .valid(nonASCII: false) : checkInFull(url: bytes)
    }

    /// Whether `bytes` is the usual URL, in one pass: `http` or `https` (any case), `://`, a host of ASCII
    /// letters, digits, `.`, `-` and `_`, a port of up to five digits no larger than 65535, then nothing or
    /// a `/`, `?` or `#` followed by printable ASCII. Every URL it accepts, ``checkInFull(url:)`` accepts
    /// too (a host of those bytes is one a name may have; the tests compare the two); for any other,
    /// `false`, and the full check decides.
    static func isPlainValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count > 7, bytes[0] | 0x20 == UInt8(ascii: "h"), bytes[1] | 0x20 == UInt8(ascii: "t"),
            bytes[2] | 0x20 == UInt8(ascii: "t"), bytes[3] | 0x20 == UInt8(ascii: "p")
        else { return false }
        var index = bytes[4] | 0x20 == UInt8(ascii: "s") ? 5 : 4
        guard index + 3 <= bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
            bytes[index + 2] == UInt8(ascii: "/")
        else { return false }
        index += 3
        let hostStart = index
        plainHostBytes.withUnsafeBufferPointer { table in
            while index < bytes.count, table[Int(bytes[index])] { index += 1 }
        }
        guard index > hostStart else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            let portStart = index
            var port = 0
            while index < bytes.count, bytes[index] &- 0x30 < 10 {
                guard index - portStart < 5 else { return false }
                port = port * 10 + Int(bytes[index] &- 0x30)
                index += 1
            }
            guard port <= 65535 else { return false }
        }
        guard index == bytes.count || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?")
            || bytes[index] == UInt8(ascii: "#")
        else { return false }
        while index < bytes.count {
            guard bytes[index] &- 0x21 < 0x5E else { return false }  // 0x21–0x7E: printable, not a space
            index += 1
        }
        return true
    }

    /// An ASCII letter, digit, `.`, `-` or `_`: what the usual host name is made of.
    private static func isPlainHostByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// ``isPlainHostByte(_:)`` of every byte: one load a byte instead of five comparisons.
    private static let plainHostBytes: [Bool] = (0...255).map { isPlainHostByte(UInt8($0)) }

    /// Every step of ``check(url:)``, for any URL.
    static func checkInFull(url bytes: UnsafeBufferPointer<UInt8>) -> URLVerdict {
        var colon = 0
        while colon < bytes.count, bytes[colon] != UInt8(ascii: ":") {
            guard isSchemeByte(bytes[colon]) else { return .notAbsolute }
            colon += 1
        }
        guard colon > 0, colon < bytes.count else { return .notAbsolute }
        let scheme = UnsafeBufferPointer(rebasing: bytes[..<colon])
        guard equalsIgnoringCase(scheme, "http") || equalsIgnoringCase(scheme, "https") else {
            return .scheme(String(decoding: scheme, as: UTF8.self))
        }
        let hostStart = colon + 3
        guard hostStart < bytes.count, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/"),
            bytes[hostStart] != UInt8(ascii: "/"), bytes[hostStart] != UInt8(ascii: "?"), bytes[hostStart] != UInt8(ascii: "#")
        else { return .noHost }
        var nonASCII = false
        for byte in bytes {
            if byte <= 0x20 || byte == 0x7F { return .controlCharacter }
            if byte >= 0x80 { nonASCII = true }
        }
        var end = hostStart
        while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") {
            end += 1
        }
        return isValidAuthority(UnsafeBufferPointer(rebasing: bytes[hostStart..<end])) ? .valid(nonASCII: nonASCII) : .badAuthority
    }

    /// Whether every character of `url` is one Unicode scalar. A combining mark (or any scalar that extends
    /// the one before it) would join the character before it: `/` followed by U+0307 is one character, no
    /// longer a `/`, and code that looks for `://`, `?` or `@` among characters would read the URL apart
    /// from libcurl. Such a URL is refused: percent-encoded, the same bytes pass.
    static func hasOneScalarPerCharacter(_ url: String) -> Bool {
        url.count == url.unicodeScalars.count
    }

    /// Whether `authority` (`[userinfo@]host[:port]`) has a host libcurl can use: an IPv6 literal in
    /// brackets must be one, a name must hold none of the bytes libcurl refuses there, and a port must be
    /// digits up to 65535.
    static func isValidAuthority(_ authority: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        if let at = authority.firstIndex(of: UInt8(ascii: "@")) {
            // A second `@` belongs in user info only percent-encoded; libcurl refuses it, and so does this check.
            guard !authority[(at + 1)...].contains(UInt8(ascii: "@")) else { return false }
            start = at + 1
        }
        let hostAndPort = UnsafeBufferPointer(rebasing: authority[start...])
        var portStart: Int?
        if hostAndPort.first == UInt8(ascii: "[") {
            guard let close = hostAndPort.firstIndex(of: UInt8(ascii: "]")),
                isIPv6(UnsafeBufferPointer(rebasing: hostAndPort[1..<close]))
            else { return false }
            guard close + 1 < hostAndPort.count else { return true }
            guard hostAndPort[close + 1] == UInt8(ascii: ":") else { return false }
            portStart = close + 2
        } else {
            let colon = hostAndPort.firstIndex(of: UInt8(ascii: ":"))
            let host = hostAndPort[..<(colon ?? hostAndPort.count)]
            guard !host.isEmpty, !host.contains(where: isForbiddenInHost) else { return false }
            guard let colon else { return true }
            portStart = colon + 1
        }
        guard let portStart else { return true }
        let port = hostAndPort[portStart...]
        guard port.count <= 5, port.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        return port.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 65535
    }

    /// Bytes libcurl's URL parser refuses in a host name (outside brackets).
    static func isForbiddenInHost(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0D, 0x0A, 0x09, UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "#"), UInt8(ascii: "?"),
            UInt8(ascii: "!"), UInt8(ascii: "@"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "\\"), UInt8(ascii: "$"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "^"), UInt8(ascii: "`"),
            UInt8(ascii: "*"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "="), UInt8(ascii: ";"), UInt8(ascii: ","),
            UInt8(ascii: "+"), UInt8(ascii: "&"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "%"):
            true
        default: false
        }
    }

    /// Whether `text` is an IPv6 address (RFC 4291 text forms: eight groups of one to four hex digits, or
    /// fewer around one `::`, the last two possibly an IPv4 address), optionally with a zone (`%25eth0`) of 1
    /// to 15 bytes after its `25`, as libcurl's parser reads one.
    static func isIPv6(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var address = Array(text)[...]
        if let percent = address.firstIndex(of: UInt8(ascii: "%")) {
            var zone = address[(percent + 1)...]
            if zone.count > 2, zone.starts(with: [UInt8(ascii: "2"), UInt8(ascii: "5")]) { zone = zone.dropFirst(2) }
            guard (1...15).contains(zone.count) else { return false }
            address = address[..<percent]
        }
        let colon = UInt8(ascii: ":")
        var halves: [ArraySlice<UInt8>] = [address]
        if let double = address.indices.dropLast().first(where: { address[$0] == colon && address[$0 + 1] == colon }) {
            halves = [address[..<double], address[(double + 2)...]]
        }
        var groups = 0
        for (number, half) in halves.enumerated() where !half.isEmpty {
            let parts = half.split(separator: colon, omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() {
                let last = number == halves.count - 1 && index == parts.count - 1
                if last && part.contains(UInt8(ascii: ".")) {
                    guard isIPv4(part) else { return false }
                    groups += 2
                } else {
                    guard !part.isEmpty, part.count <= 4, part.allSatisfy(isHexDigit) else { return false }
                    groups += 1
                }
            }
        }
        return halves.count == 2 ? groups <= 7 : groups == 8
    }

    static func isIPv4(_ text: ArraySlice<UInt8>) -> Bool {
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                && part.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 255
        }
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
    }

    /// Whether the ASCII bytes `bytes` spell `lowercase` in any case.
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for index in 0..<bytes.count where bytes[index] | 0x20 != expected[index] { return false }
        return true
    }
}

