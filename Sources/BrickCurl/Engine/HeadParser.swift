import BrickTransport

/// Builds the final response head from the header lines libcurl hands over one by one.
///
/// libcurl passes every header block it sees (`100 Continue` and other interim answers, then the final
/// response), each starting with a status line; a new status line starts a new head, so the last one is
/// the final head. After the final head's empty line, lines are trailers and are not merged into it.
/// Lines are parsed as bytes, and the fields kept as bytes (``RawFields``): a field becomes a string only
/// when someone reads it.
struct HeadParser {
    /// The head being built, or the last complete one.
    var head: ResponseHead? {
        guard var head = statusLine else { return nil }
        head.headers = HTTPHeaders(raw: fields)
        return head
    }
    /// The status line of the head being built (its fields are ``fields``).
    private var statusLine: ResponseHead?
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
            if let status = statusLine?.status, status >= 200 { finalHeadComplete = true }
            return
        }
        let line = UnsafeRawBufferPointer(rebasing: raw[..<end])
        if line.starts(with: Self.httpPrefix) {
            statusLine = Self.parseStatusLine(line)
            fields = RawFields(capacity: 512)
            namesContentEncoding = false  // room for a usual head, so that its fields are added without regrowing
        } else if line[0] == 0x20 || line[0] == 0x09 {
            // obs-fold: a continuation of the previous field's value.
            fields.appendToLastValue(Self.trimmed(line))
        } else if statusLine != nil, line.contains(0x3A) {
            fields.append(line: line)
            if !namesContentEncoding, Self.isContentEncoding(line) { namesContentEncoding = true }
        }
    }

    /// Whether the head being built has a `Content-Encoding` field: a body is decoded only then, and the
    /// field is read only then.
    private(set) var namesContentEncoding = false

    private static let contentEncoding = Array("content-encoding".utf8)

    /// Whether `line` is a `Content-Encoding` field (its name in any case, spaces before the colon allowed).
    private static func isContentEncoding(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.count > contentEncoding.count, line[0] | 0x20 == UInt8(ascii: "c") else { return false }
        for index in 0..<contentEncoding.count where line[index] | 0x20 != contentEncoding[index] { return false }
        var next = contentEncoding.count
        while next < line.count, line[next] == 0x20 || line[next] == 0x09 { next += 1 }
        return next < line.count && line[next] == 0x3A
    }

    /// The fields of the head being built.
    private var fields = RawFields(capacity: 0)

    private static let httpPrefix = Array("HTTP/".utf8)

    /// The bytes without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
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
