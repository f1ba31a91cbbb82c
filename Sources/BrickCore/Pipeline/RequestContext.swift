/// What interceptors and error handlers know about the request they work on.
public struct RequestContext: Sendable {
    /// The request's type name, for logs (`"GetUser"`); worked out only when asked for.
    public var requestName: String {
        switch name {
        case .type(let type): String(describing: type)
        case .text(let text): text
        }
    }
    private enum Name { case type(any Any.Type), text(String) }
    private let name: Name
    /// This attempt's number: 1 for the first, 2 for the first replay or retry, and so on.
    public let attempt: Int
    /// The attempts before this one, oldest first.
    public let previousAttempts: [AttemptRecord]
    /// The request's modifiers (``RequestType/modifiers``) and the session's.
    public let modifiers: [any RequestModifier]
    /// The request's logging options, when it names any (``RequestType/requestLogging``).
    public let requestLogging: RequestLogging?
    /// The request's retry configuration.
    public let autoRetryConfiguration: AutoRetryConfiguration
    /// The request of this attempt: as built before `adapt`, and as sent when responses are processed.
    public internal(set) var request: TransportRequest
    /// The base URL of the session running the request (``Session/Configuration/baseURL``), which decides
    /// where credentials go by default (``CredentialScope/sessionOrigin``).
    public let sessionBaseURL: String?

    /// Creates a context; the session makes them, and tests of interceptors may too.
    public init(
        requestName: String, attempt: Int = 1, previousAttempts: [AttemptRecord] = [], modifiers: [any RequestModifier] = [],
        requestLogging: RequestLogging? = nil, autoRetryConfiguration: AutoRetryConfiguration = .none, request: TransportRequest,
        sessionBaseURL: String? = nil
    ) {
        self.init(name: .text(requestName), attempt: attempt, previousAttempts: previousAttempts, modifiers: modifiers,
                  requestLogging: requestLogging, autoRetryConfiguration: autoRetryConfiguration, request: request,
                  sessionBaseURL: sessionBaseURL)
    }

    /// A context for a request of type `requestType`.
    init(
        requestType: any Any.Type, attempt: Int, previousAttempts: [AttemptRecord], modifiers: [any RequestModifier],
        requestLogging: RequestLogging?, autoRetryConfiguration: AutoRetryConfiguration, request: TransportRequest,
        sessionBaseURL: String?
    ) {
        self.init(name: .type(requestType), attempt: attempt, previousAttempts: previousAttempts, modifiers: modifiers,
                  requestLogging: requestLogging, autoRetryConfiguration: autoRetryConfiguration, request: request,
                  sessionBaseURL: sessionBaseURL)
    }

    private init(
        name: Name, attempt: Int, previousAttempts: [AttemptRecord], modifiers: [any RequestModifier],
        requestLogging: RequestLogging?, autoRetryConfiguration: AutoRetryConfiguration, request: TransportRequest,
        sessionBaseURL: String?
    ) {
        self.sessionBaseURL = sessionBaseURL
        self.name = name
        self.attempt = attempt
        self.previousAttempts = previousAttempts
        self.modifiers = modifiers
        self.requestLogging = requestLogging
        self.autoRetryConfiguration = autoRetryConfiguration
        self.request = request
    }

    /// The first modifier of type `type`, if the request or its session has one.
    public func modifier<Modifier: RequestModifier>(_ type: Modifier.Type) -> Modifier? {
        modifiers.lazy.compactMap { $0 as? Modifier }.first
    }

    /// Whether an earlier attempt was replayed or retried for `reason`.
    public func hasRepeated(for reason: String) -> Bool {
        previousAttempts.contains { $0.repeatReason == reason }
    }
}

/// One attempt of a request: what was sent, what came back, and why another attempt followed.
public struct AttemptRecord: Sendable {
    /// The request as sent.
    public let request: TransportRequest
    /// The response head, when one arrived.
    public let head: ResponseHead?
    /// The error, when the attempt failed.
    public let error: BrickError?
    /// Why the request was sent again after this attempt (`nil` for the last attempt).
    public let repeatReason: String?
    /// How long the call waited before this attempt, on the session's clock: a retry's delay, a wait for the
    /// network (next to nothing when it went at once).
    public let waitedBefore: Duration
    /// Why the retry rules' retry after this attempt did not go (`budget`: the origin's ``RetryBudget`` was
    /// spent); `nil` when none was refused.
    public let retryNotTaken: String?

    /// Creates a record.
    public init(
        request: TransportRequest, head: ResponseHead?, error: BrickError?, repeatReason: String?, waitedBefore: Duration = .zero,
        retryNotTaken: String? = nil
    ) {
        self.request = request
        self.head = head
        self.error = error
        self.repeatReason = repeatReason
        self.waitedBefore = waitedBefore
        self.retryNotTaken = retryNotTaken
    }
}
