#if Observability  // the package trait that brings this module's dependency (Package.swift)
public import BrickCore
public import Bricks
public import CoreMetrics
public import Tracing

extension Session.Configuration {
    /// Traces every call and attempt to `tracer` (`TracingObserver`), and every connection kept open across
    /// failures (`ConnectionTracing`), and sends the attempt's trace context in its headers
    /// (`TraceContextInjector`).
    /// - Parameters:
    ///   - tracer: Where spans go: `InstrumentationSystem.tracer` for the process's.
    ///   - redaction: What is hidden from the recorded URL. Default is `Redaction()`.
    public mutating func addTracing(_ tracer: some Tracer, redaction: Redaction = Redaction()) {
        observers.append(TracingObserver(tracer: tracer, redaction: redaction))
        connectionObservers.append(ConnectionTracing(tracer: tracer, redaction: redaction))
        interceptors.append(TraceContextInjector(instrument: tracer))
    }

    /// Records request duration, active requests and retries (`MetricsObserver`), the origin
    /// protections' refused retries, breaker changes and holds (`OriginMetrics`, told by the retry events
    /// after the `retryObserver` set before), and the open connections, their losses and reconnects
    /// (`ConnectionMetrics`), to `factory`, or to the process's metrics backend when `nil`.
    public mutating func addMetrics(factory: (any MetricsFactory)? = nil) {
        observers.append(MetricsObserver(factory: factory))
        connectionObservers.append(ConnectionMetrics(factory: factory))
        let origins = OriginMetrics(factory: factory)
        let previous = retryObserver
        retryObserver = { event in
            previous?(event)
            origins.record(event)
        }
    }
}
#endif
