/// Where a URL's scheme, host and port stand, found in one pass over its UTF-8 bytes (every delimiter is
/// ASCII, so each boundary is also a boundary of characters): what ``TransportRequest/host(of:)`` and the
/// core's origins read, so that no request pays for walking its URL character by character.
package struct URLAuthority: Sendable {
    /// The scheme, as written.
    package let scheme: Substring
    /// The host, as written, without the brackets of an IPv6 literal; never empty.
    package let host: Substring
    /// What follows the host's `:` up to the path, query or fragment (digits when the URL is sound), or `nil`
    /// when no colon follows the host.
    package let port: Substring?

    /// The parts of `url`; `nil` when it has no `://`, no host, or an unclosed `[`.
    package init?(_ url: String) {
        let bytes = url.utf8
        guard let schemeEnd = Self.schemeEnd(bytes) else { return nil }
        let start = bytes.index(schemeEnd, offsetBy: 3)
        var end = start
        var hostStart = start
        while end < bytes.endIndex {
            let byte = bytes[end]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "@") { hostStart = bytes.index(after: end) }  // the last `@` ends the user info
            end = bytes.index(after: end)
        }
        var hostEnd = hostStart
        var portColon: String.Index?
        if hostStart < end, bytes[hostStart] == UInt8(ascii: "[") {
            guard let close = bytes[hostStart..<end].firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = url[bytes.index(after: hostStart)..<close]
            hostEnd = bytes.index(after: close)
            portColon = bytes[hostEnd..<end].firstIndex(of: UInt8(ascii: ":"))
        } else {
            while hostEnd < end, bytes[hostEnd] != UInt8(ascii: ":") { hostEnd = bytes.index(after: hostEnd) }
            host = url[hostStart..<hostEnd]
            portColon = hostEnd < end ? hostEnd : nil
        }
        guard !host.isEmpty else { return nil }
        scheme = url[..<schemeEnd]
        port = portColon.map { url[bytes.index(after: $0)..<end] }
    }

    /// Where the first `://` begins.
    private static func schemeEnd(_ bytes: String.UTF8View) -> String.Index? {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: ":") {
                let rest = bytes[bytes.index(after: index)...]
                if rest.starts(with: "//".utf8) { return index }
            }
            index = bytes.index(after: index)
        }
        return nil
    }

    /// The host lowercased (ASCII letters only are folded when the host is ASCII, as hosts on the wire are).
    package var lowercasedHost: String {
        host.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") || $0 >= 0x80 }) ? host.lowercased() : String(host)
    }
}
