import Logging

/// One request's log entry, by option: a one-line message for people, and the same facts (with the
/// verbose parts) as metadata fields for machines.
///
/// Fields: `request` (the request's name), `attempt`, `http.request.method` and `url.full` (with
/// `.requestURL`), `http.response.status_code` (`.responseCode`), `duration_ms` (`.time`), `error`,
/// `request.headers`, `request.body`, `response.headers`, `response.body` and `curl` (their options).
struct LogEntry {
    let message: Logger.Message
    let metadata: Logger.Metadata

    init(_ outcome: ResponseOutcome, context: RequestContext, options: RequestLogging, redaction: Redaction) {
        let request = context.request
        var fields: Logger.Metadata = ["request": "\(context.requestName)", "attempt": "\(context.attempt)"]
        var summary = "\(context.requestName) #\(context.attempt)"
        if options.contains(.requestURL) {
            let url = redaction.url(request.url)
            summary += " \(request.method.rawValue) \(url)"
            fields["http.request.method"] = "\(request.method.rawValue)"
            fields["url.full"] = "\(url)"
        }
        switch outcome {
        case .success(let response):
            if options.contains(.responseCode) {
                summary += " → \(response.head.status)"
                fields["http.response.status_code"] = "\(response.head.status)"
            }
            if options.contains(.time) {
                summary += " in \(response.metrics.total)"
                let (seconds, attoseconds) = response.metrics.total.components
                fields["duration_ms"] = "\(Double(seconds) * 1000 + Double(attoseconds) / 1e15)"
            }
        case .failure(let error):
            summary += " → failed: \(error)"
            fields["error"] = "\(error)"
        }
        if options.contains(.requestHeaders) { fields["request.headers"] = Self.headers(request.headers, redaction) }
        if options.contains(.requestBody), let body = request.body {
            fields["request.body"] = "\(body.data.map { String(decoding: $0, as: UTF8.self) } ?? "\(body.parts.count) parts, not read")"
        }
        if case .success(let response) = outcome {
            if options.contains(.responseHeaders) { fields["response.headers"] = Self.headers(response.head.headers, redaction) }
            if options.contains(.responseBody) { fields["response.body"] = "\(String(decoding: response.body, as: UTF8.self))" }
        }
        if options.contains(.curlCommand) { fields["curl"] = "\(CurlCommand.render(request, redaction: redaction))" }
        message = "\(summary)"
        metadata = fields
    }

    /// The fields as `Name: value` strings, in order, values redacted.
    private static func headers(_ headers: HTTPHeaders, _ redaction: Redaction) -> Logger.MetadataValue {
        .array(headers.map { .string($0.name + ": " + redaction.header($0.name, $0.value)) })
    }
}
