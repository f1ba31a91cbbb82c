/// The text one request's log entry holds, by option.
struct LogEntry {
    let text: String

    init(_ outcome: ResponseOutcome, context: RequestContext, options: RequestLogging, redaction: Redaction) {
        let request = context.request
        var lines: [String] = []
        var summary = "\(context.requestName) #\(context.attempt)"
        if options.contains(.requestURL) { summary += " \(request.method.rawValue) \(redaction.url(request.url))" }
        switch outcome {
        case .success(let response):
            if options.contains(.responseCode) { summary += " → \(response.head.status)" }
            if options.contains(.time) { summary += " in \(response.metrics.total)" }
        case .failure(let error):
            summary += " → failed: \(error)"
        }
        lines.append(summary)
        if options.contains(.requestHeaders) { lines += Self.headers(request.headers, "> ", redaction) }
        if options.contains(.requestBody), let body = request.body {
            lines.append("> body: " + (body.data.map { String(decoding: $0, as: UTF8.self) } ?? "\(body.parts.count) parts, not read"))
        }
        if case .success(let response) = outcome {
            if options.contains(.responseHeaders) { lines += Self.headers(response.head.headers, "< ", redaction) }
            if options.contains(.responseBody) { lines.append("< body: " + String(decoding: response.body, as: UTF8.self)) }
        }
        if options.contains(.curlCommand) { lines.append(CurlCommand.render(request, redaction: redaction)) }
        text = lines.joined(separator: "\n")
    }

    private static func headers(_ headers: HTTPHeaders, _ prefix: String, _ redaction: Redaction) -> [String] {
        headers.map { prefix + $0.name + ": " + redaction.header($0.name, $0.value) }
    }
}
