/// A request rendered as a `curl` command line that sends the same thing, secrets redacted.
public enum CurlCommand {
    /// The command for `request`. In-memory bodies are inlined; a body that is one file becomes
    /// `--data-binary @path`; other file and stream bodies are described, not read.
    public static func render(_ request: TransportRequest, redaction: Redaction = Redaction()) -> String {
        var words = ["curl", "-X", quote(request.method.rawValue), quote(redaction.url(request.url))]
        for field in request.headers {
            words += ["-H", quote("\(field.name): \(redaction.header(field.name, field.value))")]
        }
        if let body = request.body {
            if let bytes = body.data {
                words += ["--data-binary", quote(String(decoding: bytes, as: UTF8.self))]
            } else if body.parts.count == 1, case .file(let path) = body.parts[0] {
                words += ["--data-binary", quote("@" + path)]
            } else {
                words += ["--data-binary", quote("<body of \(body.parts.count) parts: memory, files or streams>")]
            }
        }
        return words.joined(separator: " ")
    }

    /// `text` in single quotes for a POSIX shell, with each `'` written as `'\''`.
    static func quote(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }
}
