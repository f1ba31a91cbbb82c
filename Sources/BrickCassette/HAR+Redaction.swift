import BrickTransport

extension HAR.Entry {
    /// This entry with `redaction`'s secrets replaced by ``CassetteRedaction/marker``: the values of secret
    /// header fields (a cookie's name and attributes kept), query items, URL passwords and JSON or form
    /// members, and then each of those values wherever else it appears in the entry's text.
    func redacted(by redaction: CassetteRedaction) -> HAR.Entry {
        guard !redaction.isNone else { return self }
        var secrets = SecretValues()
        var entry = self
        entry.request.url = secrets.redactURL(request.url, redaction)
        entry.request.queryString = request.queryString?.map { secrets.redactPair($0, names: redaction.queryNames) }
        entry.request.headers = request.headers.map { secrets.redactField($0, redaction) }
        entry.response.headers = response.headers.map { secrets.redactField($0, redaction) }
        if redaction.headerNames.contains("cookie") { entry.request.cookies = request.cookies?.map { secrets.redactCookie($0) } }
        if redaction.headerNames.contains("set-cookie") { entry.response.cookies = response.cookies?.map { secrets.redactCookie($0) } }
        let members = redaction.jsonFields
        if var post = entry.request.postData, post.encoding == nil, let text = post.text {
            post.text = secrets.redactMembers(of: text, names: members.union(redaction.queryNames))
            entry.request.postData = post
        }
        if entry.response.content.encoding == nil, let text = entry.response.content.text {
            entry.response.content.text = secrets.redactMembers(of: text, names: members)
        }
        return secrets.scrub(entry).withSizesOfItsText()
    }

    /// The entry with its bodies' sizes those of their (redacted) text, and a note that they were redacted.
    private func withSizesOfItsText() -> HAR.Entry {
        var entry = self
        if let post = entry.request.postData, post.encoding == nil, let text = post.text, text.utf8.count != request.bodySize {
            entry.request.bodySize = text.utf8.count
            entry.request.comment = "redacted"
        }
        let content = entry.response.content
        if content.encoding == nil, let text = content.text, text.utf8.count != content.size {
            entry.response.content.size = text.utf8.count
            entry.response.content.compression = nil
            entry.response.content.comment = "redacted"
            if entry.response.bodySize != -1 { entry.response.bodySize = text.utf8.count }
        }
        return entry
    }
}

/// The secret values found in one entry, to scrub from the rest of it.
private struct SecretValues {
    private var values: Set<String> = []
    private let marker = CassetteRedaction.marker

    private mutating func note(_ value: some StringProtocol) {
        let value = String(String(value).trimmingSpaces)
        // Short values would scrub innocent text (a `1` in every body); the field itself was redacted anyway.
        if value.count >= 4, value != marker { values.insert(value) }
    }

    mutating func redactURL(_ url: String, _ redaction: CassetteRedaction) -> String {
        var url = url
        if redaction.urlPasswords {
            let hidden = URLPassword.redacted(url)
            if hidden != url, let password = Self.password(in: url) {
                note(password)
                note(Secrets.percentDecoded(Substring(password)))
            }
            url = hidden.replacing(URLPassword.placeholder, with: CassetteRedaction.markerInURL)
        }
        guard let question = url.firstIndex(of: "?") else { return url }
        let end = url[question...].firstIndex(of: "#") ?? url.endIndex
        let items = url[url.index(after: question)..<end].split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            guard let equals = item.firstIndex(of: "="), redaction.queryNames.contains(Secrets.percentDecoded(item[..<equals]).lowercased()) else {
                return String(item)
            }
            note(item[item.index(after: equals)...])
            note(Secrets.percentDecoded(item[item.index(after: equals)...]))
            return item[...equals] + CassetteRedaction.markerInURL
        }
        return url[...question] + items.joined(separator: "&") + url[end...]
    }

    private static func password(in url: String) -> Substring? {
        guard let start = url.firstRange(of: "://")?.upperBound else { return nil }
        let authority = url[start...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return nil }
        return authority[authority.index(after: colon)..<at]
    }

    mutating func redactPair(_ pair: HAR.Pair, names: Set<String>) -> HAR.Pair {
        guard names.contains(pair.name.lowercased()) else { return pair }
        note(pair.value)
        return HAR.Pair(name: pair.name, value: marker)
    }

    /// A secret field's value redacted: a cookie's values (its names and attributes kept), or the credentials
    /// after an `Authorization` scheme, or the whole value.
    mutating func redactField(_ field: HAR.Pair, _ redaction: CassetteRedaction) -> HAR.Pair {
        let name = field.name.lowercased()
        guard redaction.headerNames.contains(name) else { return field }
        var value: String
        switch name {
        case "cookie":
            value = field.value.split(separator: ";", omittingEmptySubsequences: false).map { redactCookiePair($0) }.joined(separator: ";")
        case "set-cookie":
            let parts = field.value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            value = redactCookiePair(parts[0]) + (parts.count > 1 ? ";" + parts[1] : "")
        case "authorization", "proxy-authorization":
            let parts = field.value.split(separator: " ", maxSplits: 1)
            if parts.count == 2 {
                note(parts[1])
                value = parts[0] + " " + marker
            } else {
                value = marker
            }
        default: value = marker
        }
        note(field.value)
        return HAR.Pair(name: field.name, value: value)
    }

    private mutating func redactCookiePair(_ pair: Substring) -> String {
        guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
        note(pair[pair.index(after: equals)...])
        return pair[...equals] + marker
    }

    mutating func redactCookie(_ cookie: HAR.Cookie) -> HAR.Cookie {
        var cookie = cookie
        note(cookie.value)
        cookie.value = marker
        return cookie
    }

    /// `text` with the values of JSON members (`"password": "…"`) and form items (`password=…`) named in
    /// `names` replaced; every other byte as it was.
    mutating func redactMembers(of text: String, names: Set<String>) -> String {
        guard !names.isEmpty else { return text }
        var scanner = MemberScanner(text)
        let found = scanner.secretValues(named: names)
        guard !found.isEmpty else { return redactFormItems(of: text, names: names) }
        var result = ""
        var position = text.startIndex
        for range in found {
            note(text[range])
            result += text[position..<range.lowerBound] + marker
            position = range.upperBound
        }
        return result + text[position...]
    }

    private mutating func redactFormItems(of text: String, names: Set<String>) -> String {
        guard text.contains("="), !text.contains("\n"), !text.hasPrefix("{"), !text.hasPrefix("[") else { return text }
        return text.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            guard let equals = item.firstIndex(of: "="), names.contains(Secrets.percentDecoded(item[..<equals]).lowercased()) else { return String(item) }
            note(item[item.index(after: equals)...])
            note(Secrets.percentDecoded(item[item.index(after: equals)...]))
            return item[...equals] + CassetteRedaction.markerInURL
        }.joined(separator: "&")
    }

    /// `entry` with every secret value found replaced wherever it appears in text, longest first.
    func scrub(_ entry: HAR.Entry) -> HAR.Entry {
        guard !values.isEmpty else { return entry }
        let ordered = values.sorted { $0.count > $1.count }
        func clean(_ text: String) -> String {
            ordered.reduce(text) { text, secret in text.contains(secret) ? text.replacing(secret, with: marker) : text }
        }
        func cleanURL(_ text: String) -> String {
            ordered.reduce(text) { text, secret in
                text.contains(secret) ? text.replacing(secret, with: CassetteRedaction.markerInURL) : text
            }
        }
        var entry = entry
        entry.request.url = cleanURL(entry.request.url)
        entry.request.queryString = entry.request.queryString?.map { HAR.Pair(name: $0.name, value: clean($0.value)) }
        entry.request.headers = entry.request.headers.map { HAR.Pair(name: $0.name, value: clean($0.value)) }
        entry.response.headers = entry.response.headers.map { HAR.Pair(name: $0.name, value: clean($0.value)) }
        entry.response.redirectURL = entry.response.redirectURL.map(cleanURL)
        if var post = entry.request.postData, post.encoding == nil {
            post.text = post.text.map(clean)
            entry.request.postData = post
        }
        if entry.response.content.encoding == nil, let text = entry.response.content.text { entry.response.content.text = clean(text) }
        return entry
    }
}

extension String {
    var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map(index(after:)) ?? start
        return self[start..<max(start, end)]
    }

}
