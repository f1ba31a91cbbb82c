#if Observability  // the package trait that brings this module's dependency (Package.swift)
public import BrickCore
public import Instrumentation

/// Writes the current trace context into every outgoing request's headers, through `instrument` (a
/// tracer): W3C `traceparent`/`tracestate` with an OpenTelemetry tracer. It adapts last, inside the
/// attempt's span (`TracingObserver`), so the server sees the attempt as the parent of its own spans.
public struct TraceContextInjector<I: Instrument>: Interceptor {
    /// What injects.
    public let instrument: I

    /// An interceptor injecting through `instrument`.
    public init(instrument: I) { self.instrument = instrument }

    /// After every other interceptor (and the logger).
    public var priority: InterceptorPriority { .low.less.less }

    public func adapt(_ request: inout TransportRequest, context: RequestContext) async throws {
        guard let current = ServiceContext.current else { return }
        instrument.inject(current, into: &request.headers, using: HeadersInjector())
    }
}

/// Sets one header field per value an instrument injects (replacing one of the same name).
struct HeadersInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout HTTPHeaders) {
        carrier[key] = value
    }
}
#endif
