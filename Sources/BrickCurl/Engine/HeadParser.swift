import BrickSystem
import BrickTransport

/// Builds the final response head from the header lines libcurl hands over one by one.
///
/// libcurl passes every header block it sees (`100 Continue` and other interim answers, then the final
/// response), each starting with a status line; a new status line starts a new head, so the last one is
/// the final head. After the final head's empty line, lines are trailers and are not merged into it.
/// Lines are parsed as bytes, and the fields kept as bytes (``RawFields``): a field becomes a string only
/// when someone reads it. The field lines are gathered in room the easy handle lends (``EasyHandle/headLines``)
/// and copied out once, when the head ends, in an allocation of their size; lines that do not fit go on in
/// ``fields``, which grows.
struct HeadParser {
    /// A parser gathering field lines in `room` (none: every line goes to a growing array). The room must
    /// stay valid until ``releaseRoom()``.
    init(room: UnsafeMutableRawBufferPointer = UnsafeMutableRawBufferPointer(start: nil, count: 0)) {
        self.room = room
    }

    /// The head being built, or the last complete one.
    var head: ResponseHead? {
        guard status >= 0 else { return nil }
        var all = fields
        if roomUsed > 0 { all.append(lines: UnsafeRawBufferPointer(rebasing: room[..<roomUsed])) }
        return ResponseHead(status: status, version: version, reason: reason, headers: HTTPHeaders(raw: all))
    }
    /// The status line of the head being built (its fields are ``fields``): -1 before the first one.
    private var status = -1
    private var version = ""
    private var reason = ""
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
            if status >= 200 {
                finalHeadComplete = true
                moveRoomIntoFields()
            }
            return
        }
        let line = UnsafeRawBufferPointer(rebasing: raw[..<end])
        if Self.isStatusLine(line) {
            let parsed = Self.statusLineParts(line)
            status = parsed.status
            version = parsed.version
            reason = parsed.reason
            fields = RawFields(capacity: 0)
            roomUsed = 0
            namesContentEncoding = false
        } else if line[0] == 0x20 || line[0] == 0x09 {
            // obs-fold: a continuation of the previous field's value.
            moveRoomIntoFields()
            fields.appendToLastValue(Self.trimmed(line))
        } else if status >= 0, containsByte(0x3A, in: line) {
            keep(line)
            if !namesContentEncoding, Self.isContentEncoding(line) { namesContentEncoding = true }
        }
    }

    /// Whether the head being built has a `Content-Encoding` field: a body is decoded only then, and the
    /// field is read only then.
    private(set) var namesContentEncoding = false

    /// Whether `line` is a `Content-Encoding` field (its name in any case, spaces before the colon allowed).
    private static func isContentEncoding(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.count > 16 else { return false }
        // The name's two halves, `content-` and `encoding`, as two 8-byte words (their first byte lowest).
        // Bit 0x20 makes an ASCII letter lowercase (and no other byte that letter); the `-` is compared
        // as it is, so it is left out of the mask.
        let first = UInt64(littleEndian: line.loadUnaligned(as: UInt64.self)) | 0x0020_2020_2020_2020
        let second = UInt64(littleEndian: line.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) | 0x2020_2020_2020_2020
        guard first == 0x2D74_6E65_746E_6F63, second == 0x676E_6964_6F63_6E65 else { return false }  // "content-", "encoding"
        var next = 16
        while next < line.count, line[next] == 0x20 || line[next] == 0x09 { next += 1 }
        return next < line.count && line[next] == 0x3A
    }

    /// Whether `line` starts with `HTTP/`: a status line, which starts a head.
    private static func isStatusLine(_ line: UnsafeRawBufferPointer) -> Bool {
        line.count >= 5 && line[0] == 0x48 && line[1] == 0x54 && line[2] == 0x54 && line[3] == 0x50 && line[4] == 0x2F
    }

    /// The fields of the head being built that left the room (all of them once it is complete).
    private var fields = RawFields(capacity: 0)
    /// The room lent for field lines, in ``RawFields``' layout (each line followed by a line feed), and how
    /// many of its bytes the head being built uses; they follow the lines in ``fields``.
    private var room: UnsafeMutableRawBufferPointer
    private var roomUsed = 0

    /// Keeps a field line: in the room when it fits, else after the fields.
    private mutating func keep(_ line: UnsafeRawBufferPointer) {
        let end = roomUsed + line.count  // where the line feed goes: the room must hold it too
        guard end < room.count, let base = room.baseAddress, let from = line.baseAddress else {
            moveRoomIntoFields()
            return fields.append(line: line)
        }
        (base + roomUsed).copyMemory(from: from, byteCount: line.count)
        base.storeBytes(of: 0x0A, toByteOffset: end, as: UInt8.self)
        roomUsed = end + 1
    }

    /// Copies the lines in the room to the end of the fields, and empties the room.
    private mutating func moveRoomIntoFields() {
        guard roomUsed > 0 else { return }
        fields.append(lines: UnsafeRawBufferPointer(rebasing: room[..<roomUsed]))
        roomUsed = 0
    }

    /// Lends the parser `room` for field lines, which must stay valid until ``releaseRoom()``.
    mutating func lend(_ room: UnsafeMutableRawBufferPointer) {
        self.room = room
    }

    /// Gives the room back (the handle is about to serve another transfer, or be freed): lines in it move
    /// to the fields, and later ones go there.
    mutating func releaseRoom() {
        moveRoomIntoFields()
        room = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    }


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
        let parts = statusLineParts(line)
        return ResponseHead(status: parts.status, version: parts.version, reason: parts.reason)
    }

    /// ``parseStatusLine(_:)``'s parts, without a head around them (the parser keeps them as they are).
    private static func statusLineParts(_ line: UnsafeRawBufferPointer) -> (status: Int, version: String, reason: String) {
        if let usual = usualStatusLineParts(line) { return usual }
        var index = 0
        func word() -> UnsafeRawBufferPointer {
            while index < line.count, line[index] == 0x20 { index += 1 }
            let start = index
            while index < line.count, line[index] != 0x20 { index += 1 }
            return UnsafeRawBufferPointer(rebasing: line[start..<index])
        }
        let versionWord = word()
        let version = versionWord.count > 5  // after `HTTP/`
            ? Self.text(UnsafeRawBufferPointer(rebasing: versionWord[5...])) : ""
        var status = 0
        for digit in word() {
            guard digit >= 0x30 && digit <= 0x39, status < 100_000 else { status = 0; break }
            status = status * 10 + Int(digit - 0x30)
        }
        while index < line.count, line[index] == 0x20 { index += 1 }
        let reason = Self.text(UnsafeRawBufferPointer(rebasing: line[index...]))
        return (status, version, reason)
    }

    /// The parts of the usual status line, `HTTP/1.1 `, three digits, then a space and a reason or nothing,
    /// read at fixed places (the general parse, word by word, took ~250 instructions); `nil` for any other.
    private static func usualStatusLineParts(_ line: UnsafeRawBufferPointer) -> (status: Int, version: String, reason: String)? {
        guard line.count >= 12, UInt64(littleEndian: line.loadUnaligned(as: UInt64.self)) == 0x312E_312F_5054_5448,  // "HTTP/1.1"
            line[8] == 0x20
        else { return nil }
        let hundreds = line[9] &- 0x30, tens = line[10] &- 0x30, ones = line[11] &- 0x30
        guard hundreds < 10, tens < 10, ones < 10, line.count == 12 || line[12] == 0x20 else { return nil }
        var reasonStart = 12
        while reasonStart < line.count, line[reasonStart] == 0x20 { reasonStart += 1 }
        let status = Int(hundreds) * 100 + Int(tens) * 10 + Int(ones)
        return (status, "1.1", text(UnsafeRawBufferPointer(rebasing: line[reasonStart...])))
    }

    /// `bytes` as a string; the usual versions and reason are literals, which need no decoding.
    private static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        switch bytes.count {
        case 0: return ""
        case 1 where bytes[0] == 0x32: return "2"
        case 2 where bytes[0] == 0x4F && bytes[1] == 0x4B: return "OK"
        case 3 where bytes[0] == 0x31 && bytes[1] == 0x2E && bytes[2] == 0x31: return "1.1"
        default: return String(decoding: bytes, as: UTF8.self)
        }
    }
}
