#if Observability  // the package trait that brings this module's dependency (Package.swift)
public import BrickCore
public import CoreMetrics

/// Request metrics through swift-metrics, after OpenTelemetry's HTTP client conventions:
/// - `http.client.request.duration` (a timer): each call, all attempts and waits, with dimensions
///   `http.request.method` (`_OTHER` for a method the conventions do not list), `server.address` and
///   `http.response.status_code` (or `error.type`);
/// - `http.client.active_requests` (a meter): calls running now, by method and server;
/// - `http.client.retries` (a counter): attempts after the first, by method and server.
///
/// Add it with `BrickCore/Session/Configuration/addMetrics(factory:)`.
public struct MetricsObserver: CallObserver {
    /// Where the metrics go; `nil` for the process's (`MetricsSystem.factory`).
    public let factory: (any MetricsFactory)?

    /// An observer recording to `factory`, or to the process's when `nil`.
    public init(factory: (any MetricsFactory)? = nil) { self.factory = factory }

    public func observeCall(_ call: ObservedCall, _ body: () async -> CallEnd) async -> CallEnd {
        var dimensions = [("http.request.method", call.method.conventionsLabel)]
        if let host = TransportRequest.host(of: call.url) { dimensions.append(("server.address", host)) }
        let active = Meter(label: "http.client.active_requests", dimensions: dimensions, factory: metricsFactory)
        active.increment()
        let start = ContinuousClock.now
        let end = await body()
        let elapsed = ContinuousClock.now - start
        active.decrement()
        var outcome = dimensions
        if let status = end.status { outcome.append(("http.response.status_code", "\(status)")) }
        if let error = end.error { outcome.append(("error.type", error.typeName)) }
        Timer(label: "http.client.request.duration", dimensions: outcome, factory: metricsFactory).recordInterval(elapsed)
        if end.attempts > 1 {
            Counter(label: "http.client.retries", dimensions: dimensions, factory: metricsFactory).increment(by: end.attempts - 1)
        }
        return end
    }

    public func observeAttempt(_ attempt: ObservedAttempt, _ body: () async -> AttemptEnd) async -> AttemptEnd { await body() }

    private var metricsFactory: any MetricsFactory { factory ?? MetricsSystem.factory }
}

extension Timer {
    /// Records `duration` in nanoseconds, saturating.
    func recordInterval(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (nanos, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        recordNanoseconds(overflow ? Int64.max : nanos + attoseconds / 1_000_000_000)
    }
}
#endif
