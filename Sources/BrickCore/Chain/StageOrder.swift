/// The order of a session's stages, outermost first: the one place it is declared. A stage a session or a
/// call does not need is left out of its chain (a call with nothing configured runs the conclusion, the
/// redirects and the transport); the rest keep this order. Docs/Architecture.md draws it.
///
/// Around the whole call:
/// 1. ``observers``: the session's `CallObserver`s (a stored answer is observed too);
/// 2. ``cache``: the response cache's lookup (a fresh stored answer ends the call here) and, for an unsafe
///    method, what its answer invalidates;
/// 3. ``callStages``: the session's own `CallStage`s;
/// 4. ``attemptLoop``: the attempts, as many as the retry rules, replays and retries ask for.
///
/// Around each attempt:
/// 5. ``attemptObservers``: the observers again, for the attempt;
/// 6. ``conclusion``: validation, and what becomes of the answer (serialized for the error handlers, or
///    written to a download's file), then the session's `ErrorHandler`s on a failure;
/// 7. ``interceptors``: the session's and the request's `Interceptor`s (adapt going down, process coming up);
/// 8. ``attemptStages``: the session's own `AttemptStage`s, then the call's;
/// 9. ``cacheValidators``: a stored response's conditional fields, and the answer stored (or a `304` swapped);
/// 10. ``hedging``: another request beside a slow one;
/// 11. ``redirects``: each hop below runs once per redirect followed;
/// 12. ``cookies``: the jar's cookies for the hop's URL, and the hop's `Set-Cookie` kept;
/// 13. ``originProtection``: the hop's origin's hold, breaker and bulkhead before, its budget and breaker
///     counted after (the origin that answered is the one charged);
/// 14. ``transport``: the transfer, registered with the session.
public enum StageOrder: Int, CaseIterable, Sendable, Comparable, CustomStringConvertible {
    /// The session's `CallObserver`s, around the whole call.
    case observers
    /// The response cache's lookup and invalidation.
    case cache
    /// The session's own `CallStage`s.
    case callStages
    /// The attempts, repeated as the retry rules ask.
    case attemptLoop
    /// The observers, around each attempt.
    case attemptObservers
    /// Validation, the answer's fate and the error handlers.
    case conclusion
    /// The session's and the request's `Interceptor`s.
    case interceptors
    /// The session's and the call's own `AttemptStage`s.
    case attemptStages
    /// A stored response's conditional fields, and the answer stored.
    case cacheValidators
    /// Another request beside a slow one.
    case hedging
    /// The redirects followed, one hop each.
    case redirects
    /// The jar's cookies for a hop, and the hop's `Set-Cookie` kept.
    case cookies
    /// The hop's origin's hold, breaker, bulkhead and budget.
    case originProtection
    /// The transfer, registered with the session.
    case transport

    /// Whether the stage runs around the whole call (else around each attempt or hop).
    public var isCallLevel: Bool { self <= .attemptLoop }

    public static func < (lhs: StageOrder, rhs: StageOrder) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .observers: "observers"
        case .cache: "cache"
        case .callStages: "call stages"
        case .attemptLoop: "attempt loop"
        case .attemptObservers: "attempt observers"
        case .conclusion: "conclusion"
        case .interceptors: "interceptors"
        case .attemptStages: "attempt stages"
        case .cacheValidators: "cache validators"
        case .hedging: "hedging"
        case .redirects: "redirects"
        case .cookies: "cookies"
        case .originProtection: "origin protection"
        case .transport: "transport"
        }
    }
}
