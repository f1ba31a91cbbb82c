/// What a call carries besides its public parts (``Call``): its name, its owner, its own modifiers,
/// interceptors and stages, and its logging options. Read by the stages that need them.
struct CallParts: Sendable {
    let requestType: any Any.Type
    /// The component it belongs to, so that `Session.cancel(_:)` finds its transfers.
    let owner: ObjectIdentifier?
    /// The request's modifiers (``RequestType/modifiers``).
    let modifiers: [any RequestModifier]
    /// The request's own interceptors: its modifiers that are interceptors, and its authentication.
    let interceptors: [any Interceptor]
    let requestLogging: RequestLogging?
    /// Attempt stages of this call alone, below the session's own.
    let stages: [any AttemptStage]

    /// Which of its session's chains the call runs through.
    func kind(session: Session, rules: AutoRetryConfiguration, hedging: Hedging?, collected: Bool) -> ChainKind {
        var kind: ChainKind = []
        if collected && session.hasResponseCache { kind.insert(.cache) }
        if !interceptors.isEmpty { kind.insert(.interceptors) }
        if !stages.isEmpty { kind.insert(.ownStages) }
        if hedging != nil && collected { kind.insert(.hedging) }
        // Anything that may ask for another attempt needs the loop: the retry rules, an interceptor's replay,
        // an error handler's retry, a download's restart, a `304` that matched nothing.
        if rules.isActive || !kind.isDisjoint(with: [.cache, .interceptors, .ownStages]) || session.repeatsAttempts || !collected {
            kind.insert(.loop)
        }
        return kind
    }
}

/// Which variant of a session's chain a call takes: the stages that depend on the call, not the session.
struct ChainKind: OptionSet, Hashable, Sendable {
    let rawValue: Int
    /// Attempts in a loop (retry rules, replays, retries); without it, one attempt.
    static let loop = ChainKind(rawValue: 1)
    /// The response cache's lookup and validators (a collected call on a session with a cache).
    static let cache = ChainKind(rawValue: 2)
    /// Hedged.
    static let hedging = ChainKind(rawValue: 4)
    /// The request has interceptors of its own.
    static let interceptors = ChainKind(rawValue: 8)
    /// The call has attempt stages of its own.
    static let ownStages = ChainKind(rawValue: 16)
    /// How many kinds there are.
    static let count = 32
}

/// How a call takes its answer: collected whole, streamed to the caller, or written to a download's file.
enum Delivery: Sendable {
    /// The body collected with the head. `serializer`: serialization inside each attempt, where an error
    /// handler can see its failure (a session with error handlers); without one, the value is made once
    /// the call is over.
    case collected(serializer: (any AttemptSerializer)?)
    /// The events handed to the caller once an attempt's head arrived.
    case streamed
    /// The events written to a file, within each attempt.
    case download(DownloadSink)

    var isCollected: Bool { if case .collected = self { true } else { false } }
    /// Whether the answer is collected, and whether it is serialized inside each attempt: both in one look.
    var ways: (collected: Bool, serializesInAttempt: Bool) {
        switch self {
        case .collected(let serializer): (true, serializer != nil)
        case .streamed, .download: (false, false)
        }
    }
}

/// Makes a call's value from an attempt's response and keeps it: what serialization inside the attempt
/// (``Delivery/collected(serializer:)``) runs.
protocol AttemptSerializer: Sendable {
    func serialize(_ response: TransportResponse) throws(BrickError)
}
