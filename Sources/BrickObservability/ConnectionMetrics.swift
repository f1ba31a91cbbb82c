#if Observability  // the package trait that brings this module's dependency (Package.swift)
public import BrickCore
public import CoreMetrics

/// The metrics of the connections a session keeps open across failures (a reconnecting WebSocket), through
/// swift-metrics, by `server.address` and `network.protocol.name` (`websocket`):
/// - `brick.connection.open` (a meter): connections open now, between their opening and their end;
/// - `brick.connection.losses` (a counter): connections lost;
/// - `brick.connection.reconnects` (a counter): connections opened again after a loss;
/// - `brick.connection.gave_up` (a counter): connections that ended because reconnecting gave up.
///
/// Added by `BrickCore/Session/Configuration/addMetrics(factory:)`.
public struct ConnectionMetrics: ConnectionObserver {
    /// Where the metrics go; `nil` for the process's (`MetricsSystem.factory`).
    public let factory: (any MetricsFactory)?

    /// Metrics recorded to `factory`, or to the process's when `nil`.
    public init(factory: (any MetricsFactory)? = nil) { self.factory = factory }

    public func observe(_ event: ConnectionEvent, of connection: ObservedConnection) {
        let factory = factory ?? MetricsSystem.factory
        var dimensions = [("network.protocol.name", connection.protocolName)]
        if let host = TransportRequest.host(of: connection.url) { dimensions.append(("server.address", host)) }
        switch event {
        case .opened: Meter(label: "brick.connection.open", dimensions: dimensions, factory: factory).increment()
        case .lost: Counter(label: "brick.connection.losses", dimensions: dimensions, factory: factory).increment()
        case .reconnected: Counter(label: "brick.connection.reconnects", dimensions: dimensions, factory: factory).increment()
        case .ended(let failure):
            Meter(label: "brick.connection.open", dimensions: dimensions, factory: factory).decrement()
            if failure != nil { Counter(label: "brick.connection.gave_up", dimensions: dimensions, factory: factory).increment() }
        }
    }
}
#endif
