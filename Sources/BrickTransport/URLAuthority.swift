/// Where a URL's scheme, host and port stand, found in one pass over its UTF-8 bytes (every delimiter is
/// ASCII, so each boundary is also a boundary of characters): what ``TransportRequest/host(of:)`` and the
/// core's origins read, so that no request pays for walking its URL character by character.
package struct URLAuthority: Sendable {
    /// The scheme, lowercased.
    package let scheme: String
    /// The host without the brackets of an IPv6 literal, lowercased (``lowercased(host:)``); never empty.
    package let host: String
    /// What follows the host's `:` up to the path, query or fragment (digits when the URL is sound), or `nil`
    /// when no colon follows the host.
    package let port: String?
    /// Where the authority ends in the URL's UTF-8 bytes: at the path, query or fragment, or the end. The
    /// bytes before it decide the scheme, host and port alone.
    package let end: Int

    /// The parts of `url`; `nil` when it has no `://`, no host, or an unclosed `[`.
    package init?(_ url: String) {
        let found = url.utf8.withContiguousStorageIfAvailable(Self.init(bytes:)) ?? Array(url.utf8).withUnsafeBufferPointer(Self.init(bytes:))
        guard let found else { return nil }
        self = found
    }

    /// The parts of a URL given as its bytes.
    private init?(bytes: UnsafeBufferPointer<UInt8>) {
        guard let schemeEnd = Self.schemeEnd(bytes) else { return nil }
        let start = schemeEnd + 3
        var end = start
        var hostStart = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "@") { hostStart = end + 1 }  // the last `@` ends the user info
            end += 1
        }
        var hostEnd = hostStart
        var portColon: Int?
        if hostStart < end, bytes[hostStart] == UInt8(ascii: "[") {
            guard let close = bytes[hostStart..<end].firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = Self.folded(bytes, hostStart + 1, close)
            hostEnd = close + 1
            portColon = bytes[hostEnd..<end].firstIndex(of: UInt8(ascii: ":"))
        } else {
            while hostEnd < end, bytes[hostEnd] != UInt8(ascii: ":") { hostEnd += 1 }
            host = Self.folded(bytes, hostStart, hostEnd)
            portColon = hostEnd < end ? hostEnd : nil
        }
        guard !host.isEmpty else { return nil }
        scheme = Self.folded(bytes, 0, schemeEnd)
        port = portColon.map { Self.text(bytes, $0 + 1, end) }
        self.end = end
    }

    /// The text of `bytes[from..<to]`; the bounds stand at ASCII delimiters, so the text is whole characters.
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
    }

    /// Where the first `://` begins.
    private static func schemeEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") { return index }
            index += 1
        }
        return nil
    }

    /// The text of `bytes[from..<to]` lowercased: ASCII letters folded byte by byte, as hosts and schemes on
    /// the wire are; text beyond ASCII (an internationalized name as written) lowercased as Unicode.
    private static func folded(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String {
        let part = UnsafeBufferPointer(rebasing: bytes[from..<to])
        if part.contains(where: { $0 >= 0x80 }) { return String(decoding: part, as: UTF8.self).lowercased() }
        guard part.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return String(decoding: part, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: part.count) { target in
            for (index, byte) in part.enumerated() { target[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte }
            return part.count
        }
    }

    /// `host` lowercased as a URL's host is (ASCII letters folded, Unicode lowercasing beyond ASCII), without
    /// a copy when it is lowercase already.
    package static func lowercased(host: String) -> String {
        let folds = host.utf8.withContiguousStorageIfAvailable { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x80 || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) { return true }
                index += 1
            }
            return false
        }
        guard folds != false else { return host }
        var copy = host
        return copy.withUTF8 { folded($0, 0, $0.count) }
    }
}
