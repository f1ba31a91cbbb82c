/// When a session stops calling an origin that keeps failing: a circuit breaker's settings.
///
/// The breaker of an origin counts the last ``window`` attempts of the calls that use it
/// (``OriginPolicy/usesCircuitBreaker``). Once it has seen at least ``minimumCalls`` and at least
/// ``failureRate`` of them failed, it opens: for ``openDuration`` every such call fails at once with
/// ``BrickError/heldBack(_:)``, without touching the network. Then it lets ``probes`` calls through
/// (half open): when all of them are answered it closes, when one fails it opens again.
///
/// A failure is a 408, 429 or 5xx answer, or a connection refused, lost or timed out. An attempt that failed
/// because the route to the host was down is not counted at all: that is reachability's business.
public struct CircuitBreaker: Sendable, Equatable {
    /// How many of the latest attempts the failure rate is taken over. Between 1 and 64. Default is 20.
    public let window: Int
    /// How many attempts the window must hold before the breaker may open. Between 1 and ``window``.
    /// Default is 10.
    public let minimumCalls: Int
    /// The share of failed attempts in the window that opens the breaker. More than 0, at most 1. Default is 0.5.
    public let failureRate: Double
    /// How long the breaker stays open before it lets probes through. Between 1 ms and 1 hour. Default is 30 s.
    public let openDuration: Duration
    /// How many calls go through while half open; all must be answered to close it. Between 1 and 100.
    /// Default is 1.
    public let probes: Int

    /// Creates settings.
    /// - Throws: ``OriginSettingError`` when a value is out of its range.
    public init(
        window: Int = 20, minimumCalls: Int = 10, failureRate: Double = 0.5, openDuration: Duration = .seconds(30), probes: Int = 1
    ) throws(OriginSettingError) {
        try OriginSettingError.check("CircuitBreaker.window", Double(window), within: 1...64)
        try OriginSettingError.check("CircuitBreaker.minimumCalls", Double(minimumCalls), within: 1...Double(window))
        try OriginSettingError.check("CircuitBreaker.failureRate", failureRate, within: 0.000_001...1)
        try OriginSettingError.check("CircuitBreaker.openDuration", openDuration.seconds, within: 0.001...3_600)
        try OriginSettingError.check("CircuitBreaker.probes", Double(probes), within: 1...100)
        self.init(checked: window, minimumCalls, failureRate, openDuration, probes)
    }

    private init(checked window: Int, _ minimumCalls: Int, _ failureRate: Double, _ openDuration: Duration, _ probes: Int) {
        self.window = window
        self.minimumCalls = minimumCalls
        self.failureRate = failureRate
        self.openDuration = openDuration
        self.probes = probes
    }

    /// 20 attempts, at least 10, half of them failed: open for 30 s, then one probe.
    public static let standard = CircuitBreaker(checked: 20, 10, 0.5, .seconds(30), 1)
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
