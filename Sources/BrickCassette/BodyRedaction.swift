import BrickTransport

/// A body's secrets redacted in its text, every other byte kept: the values of secret JSON members (also in
/// JSON written inside a string, and every value of an array or object under a secret name: a string becomes
/// the marker, a number 0), of secret fields of a multipart form, and of secret items of a URL-encoded form.
/// Each value taken out is noted.
struct BodyRedaction {
    let redaction: CassetteRedaction

    /// `text`, of media type `mimeType`, with its secrets redacted.
    func text(_ text: String, mimeType: String?, noting secrets: inout SecretValues) -> String {
        var text = text
        if let boundary = Self.boundary(of: mimeType) { text = multipart(text, boundary: boundary, noting: &secrets) }
        text = members(of: text, noting: &secrets)
        if Self.looksLikeForm(text, mimeType: mimeType) { text = formItems(of: text, noting: &secrets) }
        return text
    }

    private func members(of text: String, noting secrets: inout SecretValues) -> String {
        let bytes = Array(text.utf8)
        let found = MemberScanner(bytes: bytes).secretValues(isSecret: redaction.isSecretMember)
        for value in found.nested { secrets.note(value) }
        guard !found.ranges.isEmpty else { return text }
        var result: [UInt8] = []
        var position = 0
        for range in found.ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where range.lowerBound >= position {
            let value = String(decoding: bytes[range], as: UTF8.self)
            result += bytes[position..<range.lowerBound]
            // A string's content becomes the marker; a number becomes 0, so that the body stays JSON of the same
            // shape (a decoder of the replayed answer still reads it). A short number is not scrubbed elsewhere:
            // it would take innocent digits with it.
            let isString = range.lowerBound > 0 && bytes[range.lowerBound - 1] == UInt8(ascii: "\"")
            if isString || value.count >= 8 { secrets.note(value) }
            result += Array((isString ? CassetteRedaction.marker : "0").utf8)
            position = range.upperBound
        }
        return String(decoding: result + bytes[position...], as: UTF8.self)
    }

    /// `multipart/form-data` (or any multipart) with the content of each part whose field name is secret
    /// redacted.
    private func multipart(_ text: String, boundary: String, noting secrets: inout SecretValues) -> String {
        let delimiter = "--" + boundary
        var parts = text.split(separator: delimiter, omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 2 else { return text }
        for index in parts.indices.dropFirst() {
            let part = parts[index]
            guard let headEnd = part.firstRange(of: "\r\n\r\n") ?? part.firstRange(of: "\n\n") else { continue }
            let head = part[..<headEnd.lowerBound]
            guard let name = Self.fieldName(in: head), redaction.isSecretFormField(name) else { continue }
            var content = part[headEnd.upperBound...]
            let ending = content.hasSuffix("\r\n") ? "\r\n" : content.hasSuffix("\n") ? "\n" : ""
            content = content.dropLast(ending.count)
            if !content.isEmpty { secrets.note(content) }
            parts[index] = String(part[..<headEnd.upperBound]) + CassetteRedaction.marker + ending
        }
        return parts.joined(separator: delimiter)
    }

    /// `name="…"` of a part's `Content-Disposition`.
    private static func fieldName(in head: Substring) -> String? {
        for line in head.split(whereSeparator: \.isNewline) where line.lowercased().hasPrefix("content-disposition:") {
            guard let start = line.firstRange(of: "name=\"") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        }
        return nil
    }

    /// The boundary of a multipart media type.
    private static func boundary(of mimeType: String?) -> String? {
        guard let mimeType, mimeType.lowercased().hasPrefix("multipart/"), let start = mimeType.firstRange(of: "boundary=") else { return nil }
        let value = mimeType[start.upperBound...].prefix { $0 != ";" }.trimmingCharacters(in: "\" ")
        return value.isEmpty ? nil : String(value)
    }

    /// Whether `text` is a URL-encoded form: said so by its type, or one line of `name=value` items that is
    /// not JSON.
    private static func looksLikeForm(_ text: String, mimeType: String?) -> Bool {
        if mimeType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true { return true }
        return text.contains("=") && !text.contains("\n") && !text.hasPrefix("{") && !text.hasPrefix("[")
    }

    private func formItems(of text: String, noting secrets: inout SecretValues) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            guard let equals = item.firstIndex(of: "="), redaction.isSecretFormField(Secrets.percentDecoded(item[..<equals])) else {
                return String(item)
            }
            let value = item[item.index(after: equals)...]
            guard !value.isEmpty, !value.contains(CassetteRedaction.marker) else { return String(item) }
            secrets.note(value)
            return item[...equals] + CassetteRedaction.markerInURL
        }.joined(separator: "&")
    }
}
