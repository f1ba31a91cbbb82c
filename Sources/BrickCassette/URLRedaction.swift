import BrickTransport

/// A URL's secrets redacted, wherever the URL stands (a request's, `Location`, `Content-Location`,
/// `Refresh`, `Link`, `redirectURL`), absolute or relative: its whole user info (a user name may be a token),
/// and the values of secret items in its query, its fragment (`#access_token=…`, OAuth's implicit grant) and
/// its path parameters (`/files;token=…`). Each value taken out is noted, as written and decoded.
struct URLRedaction {
    let redaction: CassetteRedaction

    func url(_ url: String, noting secrets: inout SecretValues) -> String {
        let marker = CassetteRedaction.markerInURL
        var rest = Substring(url)
        var result = ""
        if let separator = rest.firstRange(of: "://") {
            result += rest[..<separator.upperBound]
            rest = rest[separator.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            var authority = rest[..<authorityEnd]
            if redaction.urlPasswords, let at = authority.lastIndex(of: "@") {
                for part in authority[..<at].split(separator: ":", maxSplits: 1) { secrets.note(part) }
                authority = marker + authority[at...]
            }
            result += authority
            rest = rest[authorityEnd...]
        }
        let fragmentStart = rest.firstIndex(of: "#") ?? rest.endIndex
        let queryStart = rest[..<fragmentStart].firstIndex(of: "?") ?? fragmentStart
        result += rest[..<queryStart].split(separator: "/", omittingEmptySubsequences: false)
            .map { pathSegment($0, noting: &secrets) }.joined(separator: "/")
        if queryStart < fragmentStart {
            result += "?" + items(rest[rest.index(after: queryStart)..<fragmentStart], separator: "&", noting: &secrets)
        }
        if fragmentStart < rest.endIndex {
            result += "#" + items(rest[rest.index(after: fragmentStart)...], separator: "&", noting: &secrets)
        }
        return result
    }

    /// A path segment with its `;name=value` parameters' secret values redacted.
    private func pathSegment(_ segment: Substring, noting secrets: inout SecretValues) -> String {
        guard let semicolon = segment.firstIndex(of: ";") else { return String(segment) }
        return segment[...semicolon] + items(segment[segment.index(after: semicolon)...], separator: ";", noting: &secrets)
    }

    /// `name=value` items with the secret ones' values redacted.
    private func items(_ text: Substring, separator: Character, noting secrets: inout SecretValues) -> String {
        text.split(separator: separator, omittingEmptySubsequences: false).map { item -> String in
            guard let equals = item.firstIndex(of: "="), redaction.isSecretQueryItem(Secrets.percentDecoded(item[..<equals])) else {
                return String(item)
            }
            let value = item[item.index(after: equals)...]
            guard !value.isEmpty else { return String(item) }
            secrets.note(value)
            return item[...equals] + CassetteRedaction.markerInURL
        }.joined(separator: String(separator))
    }

    /// A field's value redacted when it holds URLs: `Location` and `Content-Location` are one, `Refresh` has
    /// one after `url=`, `Link` one in each `<…>`. `nil` for a field of another kind.
    func field(_ name: String, _ value: String, noting secrets: inout SecretValues) -> String? {
        switch name.lowercased() {
        case "location", "content-location":
            return url(value, noting: &secrets)
        case "refresh":
            // `5; url=https://…` (any case; the value is short).
            guard let start = value.indices.first(where: { value[$0...].prefix(4).lowercased() == "url=" }) else { return value }
            let after = value.index(start, offsetBy: 4)
            let target = value[after...].trimmingCharacters(in: "'\" ")
            return value[..<after] + url(String(target), noting: &secrets)
        case "link":
            var result = ""
            var rest = Substring(value)
            while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
                result += rest[...open] + url(String(rest[rest.index(after: open)..<close]), noting: &secrets) + ">"
                rest = rest[rest.index(after: close)...]
            }
            return result + rest
        default:
            return nil
        }
    }
}

extension Substring {
    /// Without the characters of `set` at either end.
    func trimmingCharacters(in set: String) -> Substring {
        var text = self
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return text
    }
}
