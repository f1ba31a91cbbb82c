/// Resolves a redirect's `Location` against the URL that was requested (RFC 3986 §5.2): absolute URLs,
/// `//host/…`, `/path`, `?query` and relative paths, with `.` and `..` segments removed. The fragment is
/// dropped (it is never sent). Bytes a URL cannot hold raw (space, non-ASCII) are percent-encoded; a control
/// byte makes the location invalid.
enum RedirectLocation {
    /// The absolute URL `location` names, or `nil` when it is empty (a fragment alone included) or holds a
    /// control byte.
    static func resolve(_ location: String, against base: String) -> String? {
        var reference = location.trimmingWhitespace
        if let hash = reference.firstIndex(of: "#") { reference = reference[..<hash] }
        guard !reference.isEmpty, let encoded = percentEncoded(reference) else { return nil }
        if URLResolution.isAbsolute(encoded) { return encoded }
        guard let schemeEnd = base.firstRange(of: "://") else { return nil }
        let scheme = base[..<schemeEnd.lowerBound]
        let rest = base[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let pathAndQuery = rest[authorityEnd...].prefix { $0 != "#" }
        let basePath = pathAndQuery.prefix { $0 != "?" }
        if encoded.hasPrefix("//") { return "\(scheme):\(encoded)" }
        if encoded.hasPrefix("?") { return "\(scheme)://\(authority)\(basePath)\(encoded)" }
        let (path, query) = split(encoded)
        let merged: String
        if path.hasPrefix("/") {
            merged = String(path)
        } else if path.isEmpty {
            merged = String(basePath.isEmpty ? "/" : basePath)
        } else {
            let directory = basePath.lastIndex(of: "/").map { basePath[...$0] } ?? "/"
            merged = String(directory) + path
        }
        return "\(scheme)://\(authority)\(removingDotSegments(merged))\(query)"
    }

    /// The path and the query (with its `?`, or empty) of a reference.
    private static func split(_ reference: String) -> (Substring, Substring) {
        guard let question = reference.firstIndex(of: "?") else { return (reference[...], "") }
        return (reference[..<question], reference[question...])
    }

    /// RFC 3986 §5.2.4: the path without `.` and `..` segments (`..` never climbs above the root).
    static func removingDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".": if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default: output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/")
    }

    /// `text` with spaces and non-ASCII bytes percent-encoded; `nil` when it holds another control byte.
    private static func percentEncoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F { return nil }
            if byte == 0x20 || byte >= 0x80 {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
