import BrickTransport

/// Builds the final response head from the header lines libcurl hands over one by one.
///
/// libcurl passes every header block it sees (`100 Continue` and other interim answers, then the final
/// response), each starting with a status line; a new status line starts a new head, so the last one is
/// the final head. After the final head's empty line, lines are trailers and are not merged into it.
/// Lines are parsed as bytes: only the name and value become strings.
struct HeadParser {
    /// The head being built, or the last complete one.
    private(set) var head: ResponseHead?
    /// Whether the final head (status 200 or more) has ended with its empty line: what comes through the
    /// header callback after it are trailers, which never change the head.
    private(set) var finalHeadComplete = false
    /// Bytes of header lines fed so far, trailers included.
    private(set) var byteCount = 0

    /// Feeds one header line, with or without its trailing CRLF.
    mutating func feed(_ line: Substring) {
        var copy = String(line)
        copy.withUTF8 { feed(UnsafeRawBufferPointer($0)) }
    }

    /// Feeds one header line as libcurl hands it over, with or without its trailing CRLF. Linear in the
    /// line's length, whatever came before (a folded line is appended in place).
    mutating func feed(_ raw: UnsafeRawBufferPointer) {
        byteCount += raw.count
        guard !finalHeadComplete else { return }  // a trailer: not part of the head
        var end = raw.count
        while end > 0, raw[end - 1] == 0x0A || raw[end - 1] == 0x0D { end -= 1 }
        guard end > 0 else {
            // The empty line ends a head; an interim one (1xx) is followed by another.
            if let status = head?.status, status >= 200 { finalHeadComplete = true }
            return
        }
        let line = UnsafeRawBufferPointer(rebasing: raw[..<end])
        if line.starts(with: Self.httpPrefix) {
            head = Self.parseStatusLine(line)
            head?.headers.reserveCapacity(16)  // room for a usual head's fields, so that they are added without regrowing
        } else if line[0] == 0x20 || line[0] == 0x09 {
            // obs-fold: a continuation of the previous field's value.
            head?.headers.appendToLastValue(Self.trimmed(line))
        } else if let colon = line.firstIndex(of: 0x3A) {
            let name = Self.trimmed(UnsafeRawBufferPointer(rebasing: line[..<colon]))
            let value = Self.trimmed(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
            head?.headers.add(name: name, value: value)
        }
    }

    private static let httpPrefix = Array("HTTP/".utf8)

    /// The bytes without leading and trailing spaces and tabs, as a string.
    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> String {
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// Parses `HTTP/1.1 200 OK` or `HTTP/2 204`; a status that is not a number becomes 0.
    static func parseStatusLine(_ line: Substring) -> ResponseHead {
        var copy = String(line)
        return copy.withUTF8 { parseStatusLine(UnsafeRawBufferPointer($0)) }
    }

    /// Parses a status line's bytes: the version after `HTTP/`, a 3-digit-or-longer status, the reason.
    static func parseStatusLine(_ line: UnsafeRawBufferPointer) -> ResponseHead {
        var index = 0
        func word() -> UnsafeRawBufferPointer {
            while index < line.count, line[index] == 0x20 { index += 1 }
            let start = index
            while index < line.count, line[index] != 0x20 { index += 1 }
            return UnsafeRawBufferPointer(rebasing: line[start..<index])
        }
        let versionWord = word()
        let version = versionWord.count > httpPrefix.count
            ? String(decoding: UnsafeRawBufferPointer(rebasing: versionWord[httpPrefix.count...]), as: UTF8.self) : ""
        var status = 0
        for digit in word() {
            guard digit >= 0x30 && digit <= 0x39, status < 100_000 else { status = 0; break }
            status = status * 10 + Int(digit - 0x30)
        }
        while index < line.count, line[index] == 0x20 { index += 1 }
        let reason = String(decoding: UnsafeRawBufferPointer(rebasing: line[index...]), as: UTF8.self)
        return ResponseHead(status: status, version: version, reason: reason)
    }
}
