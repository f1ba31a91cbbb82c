/// Something attached to a request that interceptors may read: options, markers, or an interceptor itself.
/// Attach them with ``RequestType/modifiers`` or a session's configuration.
public protocol RequestModifier: Sendable {}

/// A request's outcome as an interceptor sees it: the raw response, or the error.
public typealias ResponseOutcome = Result<TransportResponse, BrickError>

/// What an interceptor decides about a response.
public enum InterceptorDecision: Sendable {
    /// Go on with this outcome (the one given, or a replacement).
    case proceed(ResponseOutcome)
    /// Send the request again at once, through the whole pipeline (`adapt` runs again), for `reason`.
    case replay(reason: String)
}

/// Adapts outgoing requests and processes their responses, at session level
/// (``Session/Configuration/interceptors``) or for one request (``RequestType/modifiers``).
///
/// Interceptors run in ``priority`` order: the highest adapts the request first and processes the response
/// last, so each one wraps those below it. Every attempt runs the whole pipeline again, so a retried
/// request gets fresh headers and tokens. Every hook has a default that does nothing.
public protocol Interceptor: RequestModifier {
    /// Where this interceptor runs among the others. Default is ``InterceptorPriority/normal``.
    var priority: InterceptorPriority { get }

    /// Changes the request before it is sent. Default does nothing.
    /// - Throws: Anything; the attempt fails with ``BrickError/interceptor(_:)`` and nothing is sent.
    func adapt(_ request: inout TransportRequest, context: RequestContext) async throws

    /// Sees the outcome before validation and serialization, and may replace it or ask for a replay.
    /// Default returns `.proceed(outcome)`.
    func process(_ outcome: ResponseOutcome, context: RequestContext) async -> InterceptorDecision
}

extension Interceptor {
    public var priority: InterceptorPriority { .normal }
    public func adapt(_ request: inout TransportRequest, context: RequestContext) async throws {}
    public func process(_ outcome: ResponseOutcome, context: RequestContext) async -> InterceptorDecision {
        .proceed(outcome)
    }
}

extension Array where Element == any Interceptor {
    /// The interceptors in running order: highest priority first, ties in the order given.
    func inRunningOrder() -> [any Interceptor] {
        guard count > 1 else { return self }
        return enumerated().sorted { lhs, rhs in
            lhs.element.priority != rhs.element.priority ? lhs.element.priority > rhs.element.priority : lhs.offset < rhs.offset
        }.map(\.element)
    }
}
