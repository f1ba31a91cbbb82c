#if Observability  // the package trait that brings this module's dependency (Package.swift)
public import BrickCore
public import Bricks
public import Tracing

/// One span per call and one per attempt, through swift-distributed-tracing, with attributes after
/// OpenTelemetry's HTTP client conventions.
///
/// - The call's span (kind `internal`, named `GET GetUser`; `HTTP GetUser` for a method the conventions do
///   not list): `http.request.method` (`_OTHER` for such a method, with `http.request.method_original`), `url.full` (redacted),
///   `server.address`, `brick.request`, then `http.response.status_code`, `brick.attempts` and, on failure,
///   `error.type` and an error status.
/// - Each attempt's span (kind `client`, named by the method), a child of the call's: the same request
///   attributes, `http.request.resend_count` from the second attempt, the status or `error.type`. A status of
///   400 or more marks it as an error, as the conventions say for clients.
///
/// Add it with `BrickCore/Session/Configuration/addTracing(_:redaction:)`, which also injects the attempt's
/// trace context into the outgoing headers (W3C `traceparent` with an OpenTelemetry tracer).
public struct TracingObserver<T: Tracer>: CallObserver {
    /// Where spans go.
    public let tracer: T
    /// What is hidden from `url.full`.
    public let redaction: Redaction

    /// An observer that records to `tracer`.
    public init(tracer: T, redaction: Redaction = Redaction()) {
        self.tracer = tracer
        self.redaction = redaction
    }

    public func observeCall(_ call: ObservedCall, _ body: () async -> CallEnd) async -> CallEnd {
        await tracer.withSpan("\(call.method.spanName) \(call.requestName)", ofKind: .internal) { span in
            describe(call, on: span)
            span.attributes["brick.request"] = call.requestName
            let end = await body()
            if let status = end.status { span.attributes["http.response.status_code"] = status }
            span.attributes["brick.attempts"] = end.attempts
            if let error = end.error { fail(span, error) }
            return end
        }
    }

    public func observeAttempt(_ attempt: ObservedAttempt, _ body: () async -> AttemptEnd) async -> AttemptEnd {
        await tracer.withSpan(attempt.call.method.spanName, ofKind: .client) { span in
            describe(attempt.call, on: span)
            if attempt.number > 1 { span.attributes["http.request.resend_count"] = attempt.number - 1 }
            let end = await body()
            if let status = end.status {
                span.attributes["http.response.status_code"] = status
                if status >= 400, end.error == nil { span.setStatus(SpanStatus(code: .error)) }
            }
            if let error = end.error { fail(span, error) }
            return end
        }
    }

    private func describe(_ call: ObservedCall, on span: some Span) {
        span.attributes["http.request.method"] = call.method.conventionsLabel
        if call.method.conventionsLabel != call.method.rawValue { span.attributes["http.request.method_original"] = call.method.rawValue }
        span.attributes["url.full"] = redaction.url(call.url)
        if let host = TransportRequest.host(of: call.url) { span.attributes["server.address"] = host }
    }

    private func fail(_ span: some Span, _ error: BrickError) {
        span.attributes["error.type"] = error.typeName
        span.setStatus(SpanStatus(code: .error, message: "\(error)"))
    }
}

extension BrickError {
    /// A short, low-cardinality name of the failure for `error.type`: the transport's kind
    /// (`connectionRefused`), else the case (`validation`, `gaveUp`).
    var typeName: String {
        switch self {
        case .transport(let error): error.kind.rawValue
        case .serialization: "serialization"
        case .validation(_, let response): "\(response.head.status)"
        case .requestEncoding: "requestEncoding"
        case .interceptor: "interceptor"
        case .gaveUp(let failure): failure.lastError?.typeName ?? "gaveUp"
        case .file: "file"
        case .notCached: "notCached"
        case .shutDown: "shutDown"
        case .heldBack: "heldBack"
        }
    }
}

extension HTTPMethod {
    /// A span's name for the method: the method, or `HTTP` for one the conventions do not list.
    fileprivate var spanName: String { conventionsLabel == rawValue ? rawValue : "HTTP" }
}
#endif
