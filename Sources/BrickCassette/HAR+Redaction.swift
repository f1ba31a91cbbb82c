import BrickTransport
import FoundationEssentials

extension HAR.Entry {
    /// This entry with `redaction`'s secrets replaced by ``CassetteRedaction/marker``: the values of secret
    /// header fields (a cookie's names and attributes, an `Authorization` scheme kept), the URLs wherever they
    /// stand (``URLRedaction``), cookies, and the bodies' secret members and fields (``BodyRedaction``), a
    /// body kept in base64 too when it is text. Each value taken out is noted in `secrets`, to be scrubbed
    /// from every entry of the recording (``scrubbed(by:)``).
    func redacted(by redaction: CassetteRedaction, noting secrets: inout SecretValues) -> HAR.Entry {
        guard !redaction.isNone else { return self }
        let urls = URLRedaction(redaction: redaction)
        let bodies = BodyRedaction(redaction: redaction)
        var entry = self
        entry.request.url = urls.url(request.url, noting: &secrets)
        entry.request.queryString = request.queryString?.map { pair in
            guard redaction.isSecretQueryItem(pair.name), !pair.value.isEmpty else { return pair }
            secrets.note(pair.value)
            return HAR.Pair(name: pair.name, value: CassetteRedaction.marker)
        }
        entry.request.headers = request.headers.map { Self.redacted($0, redaction, urls, &secrets) }
        entry.response.headers = response.headers.map { Self.redacted($0, redaction, urls, &secrets) }
        if redaction.isSecretHeader("cookie") { entry.request.cookies = request.cookies?.map { Self.redacted($0, &secrets) } }
        if redaction.isSecretHeader("set-cookie") { entry.response.cookies = response.cookies?.map { Self.redacted($0, &secrets) } }
        entry.response.redirectURL = response.redirectURL.map { urls.url($0, noting: &secrets) }
        if var post = entry.request.postData {
            if let text = post.text { post.text = Self.redacted(text, encoding: post.encoding, mimeType: post.mimeType, bodies, &secrets) }
            post.params = post.params?.map { param in
                guard redaction.isSecretFormField(param.name), let value = param.value, !value.isEmpty else { return param }
                secrets.note(value)
                var redacted = param
                redacted.value = CassetteRedaction.marker
                return redacted
            }
            entry.request.postData = post
        }
        if let text = response.content.text {
            entry.response.content.text = Self.redacted(
                text, encoding: response.content.encoding, mimeType: response.content.mimeType, bodies, &secrets)
        }
        return entry
    }

    /// A header field with its secret value redacted: a cookie's values (names and attributes kept), the
    /// credentials after an `Authorization` scheme, or the whole value; a URL-valued field's URLs.
    private static func redacted(_ field: HAR.Pair, _ redaction: CassetteRedaction, _ urls: URLRedaction, _ secrets: inout SecretValues) -> HAR.Pair {
        let name = field.name.lowercased()
        guard redaction.isSecretHeader(name) else {
            return urls.field(name, field.value, noting: &secrets).map { HAR.Pair(name: field.name, value: $0) } ?? field
        }
        let marker = CassetteRedaction.marker
        var value: String
        switch name {
        case "cookie":
            value = field.value.split(separator: ";", omittingEmptySubsequences: false).map { cookiePair($0, &secrets) }.joined(separator: ";")
        case "set-cookie":
            let parts = field.value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            value = cookiePair(parts.first ?? "", &secrets) + (parts.count > 1 ? ";" + parts[1] : "")
        case "authorization", "proxy-authorization":
            let parts = field.value.split(separator: " ", maxSplits: 1)
            if parts.count == 2 {
                secrets.note(parts[1])
                value = parts[0] + " " + marker
            } else {
                value = marker
            }
        default: value = marker
        }
        secrets.note(field.value)
        return HAR.Pair(name: field.name, value: value)
    }

    private static func cookiePair(_ pair: Substring, _ secrets: inout SecretValues) -> String {
        guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
        secrets.note(pair[pair.index(after: equals)...])
        return pair[...equals] + CassetteRedaction.marker
    }

    private static func redacted(_ cookie: HAR.Cookie, _ secrets: inout SecretValues) -> HAR.Cookie {
        var cookie = cookie
        secrets.note(cookie.value)
        cookie.value = CassetteRedaction.marker
        return cookie
    }

    /// A body's text redacted: as it is, or through base64 when it is kept so and its bytes are UTF-8 text (a
    /// body that is not text is scrubbed byte by byte instead: ``scrubbed(by:)``).
    private static func redacted(_ text: String, encoding: String?, mimeType: String?, _ bodies: BodyRedaction, _ secrets: inout SecretValues) -> String {
        guard let encoding else { return bodies.text(text, mimeType: mimeType, noting: &secrets) }
        guard encoding == "base64", let bytes = Data(base64Encoded: text), let decoded = String(validating: bytes, as: UTF8.self) else { return text }
        let redacted = bodies.text(decoded, mimeType: mimeType, noting: &secrets)
        return redacted == decoded ? text : Data(redacted.utf8).base64EncodedString()
    }

    /// The entry with every noted secret replaced wherever it appears in text (a URL's, a field's, a body's,
    /// an error's) or in a body kept in base64 (as bytes), and its bodies' sizes those of what is written.
    func scrubbed(by scrubber: Scrubber) -> HAR.Entry {
        var entry = self
        if !scrubber.isEmpty {
            func clean(_ text: String) -> String { scrubber.text(text) }
            func cleanURL(_ text: String) -> String { scrubber.text(text, marker: CassetteRedaction.markerInURL) }
            func clean(_ pair: HAR.Pair) -> HAR.Pair { HAR.Pair(name: pair.name, value: clean(pair.value)) }
            entry.request.url = cleanURL(entry.request.url)
            entry.request.queryString = entry.request.queryString?.map(clean)
            entry.request.headers = entry.request.headers.map(clean)
            entry.response.headers = entry.response.headers.map(clean)
            entry.request.cookies = entry.request.cookies?.map { var cookie = $0; cookie.value = clean(cookie.value); return cookie }
            entry.response.cookies = entry.response.cookies?.map { var cookie = $0; cookie.value = clean(cookie.value); return cookie }
            entry.response.redirectURL = entry.response.redirectURL.map(cleanURL)
            if var post = entry.request.postData {
                post.text = post.text.map { Self.scrubbed($0, encoding: post.encoding, scrubber) }
                post.params = post.params?.map { var param = $0; param.value = param.value.map(clean); return param }
                entry.request.postData = post
            }
            entry.response.content.text = entry.response.content.text.map { Self.scrubbed($0, encoding: entry.response.content.encoding, scrubber) }
            entry.error = entry.error.map { HAR.RecordedError(kind: $0.kind, message: clean($0.message)) }
        }
        return entry.withSizesOfWhatIsWritten()
    }

    private static func scrubbed(_ text: String, encoding: String?, _ scrubber: Scrubber) -> String {
        guard let encoding else { return scrubber.text(text) }
        guard encoding == "base64", let bytes = Data(base64Encoded: text) else { return text }
        let scrubbed = scrubber.bytes(Array(bytes))
        return scrubbed.elementsEqual(bytes) ? text : Data(scrubbed).base64EncodedString()
    }

    /// The entry with its bodies' sizes those of the bodies it writes, noted `redacted` where they changed.
    private func withSizesOfWhatIsWritten() -> HAR.Entry {
        var entry = self
        if let post = entry.request.postData, let text = post.text, let size = Self.size(of: text, encoding: post.encoding), size != request.bodySize {
            entry.request.bodySize = size
            entry.request.comment = "redacted"
        }
        let content = entry.response.content
        if let text = content.text, let size = Self.size(of: text, encoding: content.encoding), size != content.size {
            entry.response.content.size = size
            entry.response.content.compression = nil
            entry.response.content.comment = "redacted"
            if entry.response.bodySize != -1 { entry.response.bodySize = size }
        }
        return entry
    }

    /// How many bytes a body's text stands for.
    private static func size(of text: String, encoding: String?) -> Int? {
        guard let encoding else { return text.utf8.count }
        return encoding == "base64" ? Data(base64Encoded: text)?.count : nil
    }
}
