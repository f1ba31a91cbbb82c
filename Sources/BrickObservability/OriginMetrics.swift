#if Observability  // the package trait that brings this module's dependency (Package.swift)
public import BrickCore
public import CoreMetrics

/// The origin protections' metrics through swift-metrics, from the session's retry events:
/// - `brick.retries.refused` (a counter): retries the origin's budget refused, by `server.origin`;
/// - `brick.circuit.transitions` (a counter): breakers that opened or closed, by `server.origin` and
///   `state` (`open`, `closed`);
/// - `brick.origin.holds` (a counter): calls a `Retry-After` held back, and answers that started a hold, by
///   `server.origin`.
/// Retries taken are `http.client.retries` (``MetricsObserver``).
///
/// Added by `BrickCore/Session/Configuration/addMetrics(factory:)` beside the session's own retry observer.
public struct OriginMetrics: Sendable {
    /// Where the metrics go; `nil` for the process's (`MetricsSystem.factory`).
    public let factory: (any MetricsFactory)?

    /// Metrics recorded to `factory`, or to the process's when `nil`.
    public init(factory: (any MetricsFactory)? = nil) { self.factory = factory }

    /// Records what `event` says of an origin; other events are left alone.
    public func record(_ event: RetryEvent) {
        let factory = factory ?? MetricsSystem.factory
        switch event {
        case .retryNotTaken(_, let origin, _):
            Counter(label: "brick.retries.refused", dimensions: [("server.origin", origin)], factory: factory).increment()
        case .circuitOpened(let origin, _):
            Counter(label: "brick.circuit.transitions", dimensions: [("server.origin", origin), ("state", "open")], factory: factory).increment()
        case .circuitClosed(let origin):
            Counter(label: "brick.circuit.transitions", dimensions: [("server.origin", origin), ("state", "closed")], factory: factory).increment()
        case .heldBack(_, let origin, _):
            Counter(label: "brick.origin.holds", dimensions: [("server.origin", origin)], factory: factory).increment()
        default: break
        }
    }
}
#endif
