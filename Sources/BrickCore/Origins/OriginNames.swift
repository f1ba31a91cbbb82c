import BrickSystem
import BrickTransport

/// The origin and host of the last URL a session's calls named, kept so that a stream of calls to one
/// origin works them out once: a URL whose bytes begin with the last one's scheme and authority, followed by
/// its path, query or fragment or by nothing, has that origin and host (the authority is what decides them,
/// and it ends at the first `/`, `?` or `#` after `://`).
final class OriginNames: Sendable {
    /// What a URL's scheme and authority name.
    struct Names: Sendable {
        /// `scheme://host:port`, as the session's tables name the origin (``OriginTicket/origin(of:)``).
        let origin: String
        /// The URL's host, lowercased (``TransportRequest/host(of:)``); `nil` when it has none.
        let host: String?
        /// The URL's text up to the end of its authority; empty for a URL with no authority.
        let prefix: String
    }

    private let last = Locked<Names?>(nil)

    /// The names of `url`: the last ones when `url` has their authority, worked out (and kept) otherwise.
    func of(_ url: String) -> Names {
        if let known = last.withLock({ $0 }), Self.has(url, authority: known.prefix) { return known }
        guard let parts = URLAuthority(url) else { return Names(origin: url, host: nil, prefix: "") }
        let names = Names(origin: Origin(parts).map(\.description) ?? url, host: parts.host, prefix: String(url.utf8.prefix(parts.end)) ?? "")
        last.withLock { $0 = names }
        return names
    }

    /// Whether `url` is `prefix` followed by nothing or by a path, query or fragment.
    static func has(_ url: String, authority prefix: String) -> Bool {
        let count = prefix.utf8.count
        guard count > 0, url.utf8.count >= count else { return false }
        let found: Bool? = url.utf8.withContiguousStorageIfAvailable { bytes in
            prefix.utf8.withContiguousStorageIfAvailable { start in
                guard Self.equal(UnsafeRawBufferPointer(bytes), UnsafeRawBufferPointer(start), count: count) else { return false }
                guard bytes.count > count else { return true }
                let next = bytes[count]
                return next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "#")
            } ?? false
        }
        return found ?? false
    }

    /// Whether the first `count` bytes of `a` and `b` (both at least that long) are the same, compared eight
    /// at a time (the generic `elementsEqual` walked them one by one through an iterator).
    @inline(__always)
    private static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            guard a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset += 8
        }
        while offset < count {
            guard a[offset] == b[offset] else { return false }
            offset += 1
        }
        return true
    }
}
