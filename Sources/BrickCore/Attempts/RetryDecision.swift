public import FoundationEssentials

/// The retry rules, as one pure function: (attempt, method, failure, headers, reachability, configuration)
/// → retry after a delay / wait for the network / give up.
public enum RetryDecision {
    /// Decides what follows a failed attempt.
    ///
    /// In order: a failure retrying cannot cure gives up; so does one that may have reached the server
    /// when the request is not idempotent; an unreachable host fails at once with `failWhenNotReachable`;
    /// spent retries give up; a DNS failure while the network is up gives up (the name does not exist);
    /// an unreachable host is waited for; otherwise the delay is `Retry-After` (capped) or the backoff,
    /// unless it would end past the deadline.
    public static func decide(_ input: Input) -> Verdict {
        let configuration = input.configuration
        guard let kind = failureClass(input.failure, configuration) else { return .giveUp(.notRetryable) }
        if kind == .mayHaveReachedServer && !input.idempotency.allowsRepeat(of: input.method) {
            return .giveUp(.notIdempotent)
        }
        let networkFailure = isNetworkFailure(input.failure)
        let unreachable = networkFailure && input.reachability == .unreachable
        if unreachable && configuration.failWhenNotReachable { return .giveUp(.notReachable) }
        guard input.retriesSoFar < configuration.maxRetryCount else { return .giveUp(.retriesExhausted) }
        if input.failure == .transport(.cannotResolveHost) && !unreachable { return .giveUp(.notRetryable) }
        let remaining = configuration.deadline.map { $0 - input.elapsed }
        if let remaining, remaining <= .zero { return .giveUp(.deadlineExceeded) }
        if unreachable { return .waitForNetwork(upTo: min(configuration.maxNetworkWait, remaining ?? configuration.maxNetworkWait)) }
        let delay = retryAfter(input) ?? backoff(retry: input.retriesSoFar, jitter: input.jitter, configuration)
        if let remaining, delay > remaining { return .giveUp(.deadlineExceeded) }
        return .retry(after: delay)
    }

    /// Decides whether an attempt may go out now, from the host's reachability: `nil` to send it; while the
    /// host is unreachable, give up at once with `failWhenNotReachable`, give up when the deadline has
    /// passed, else wait for the network up to `maxNetworkWait` (or what is left before the deadline).
    /// Only `configuration`, `reachability` and `elapsed` are read.
    public static func beforeAttempt(_ input: Input) -> Verdict? {
        guard input.reachability == .unreachable else { return nil }
        let configuration = input.configuration
        if configuration.failWhenNotReachable { return .giveUp(.notReachable) }
        let remaining = configuration.deadline.map { $0 - input.elapsed }
        let limit = min(configuration.maxNetworkWait, remaining ?? configuration.maxNetworkWait)
        return limit > .zero ? .waitForNetwork(upTo: limit) : .giveUp(.deadlineExceeded)
    }

    /// Whether a request may be sent again after it failed without reaching the server, or only if
    /// sending it twice is harmless.
    enum FailureClass { case neverSent, mayHaveReachedServer }

    /// The failure's class, or `nil` when retrying cannot cure it.
    static func failureClass(_ failure: FailureKind, _ configuration: AutoRetryConfiguration) -> FailureClass? {
        switch failure {
        case .transport(let kind):
            switch kind {
            case .connectionRefused, .networkUnreachable, .cannotResolveHost, .connectTimeout: .neverSent
            case .connectionLost, .timedOut, .stalled: .mayHaveReachedServer
            default: nil
            }
        case .status(let head): configuration.retryableStatuses.contains(head.status) ? .mayHaveReachedServer : nil
        case .other: nil
        }
    }

    /// Failures that a lost network explains, so that reachability decides between waiting and retrying.
    static func isNetworkFailure(_ failure: FailureKind) -> Bool {
        guard case .transport(let kind) = failure else { return false }
        return [.networkUnreachable, .cannotResolveHost, .connectTimeout, .connectionLost, .timedOut, .stalled].contains(kind)
    }

    /// The delay a response's `Retry-After` asks for, capped by ``AutoRetryConfiguration/maxRetryAfter``.
    static func retryAfter(_ input: Input) -> Duration? {
        guard case .status(let head) = input.failure, let asked = RetryAfter.delay(in: head, now: input.now) else { return nil }
        return min(asked, input.configuration.maxRetryAfter)
    }

    /// Full-jitter exponential backoff: a random point in `0 ... min(maxBreakTime, breakTime × 2^retry)`.
    public static func backoff(retry: Int, jitter: Double, _ configuration: AutoRetryConfiguration) -> Duration {
        let ceiling = min(configuration.maxBreakTime, configuration.breakTime * Double(1 << min(retry, 30)))
        return ceiling * min(max(jitter, 0), 1)
    }
}

extension RetryDecision {
    /// What went wrong with an attempt, as far as retrying is concerned.
    public enum FailureKind: Sendable, Equatable {
        /// The transport failed.
        case transport(TransportError.Kind)
        /// A response arrived with a status the request does not accept.
        case status(ResponseHead)
        /// Anything else: the body did not serialize, an interceptor failed, the request could not be built.
        /// Never retried: doing it again gives the same answer.
        case other
    }

    /// Everything a retry decision looks at. All values, no effects: ``RetryDecision/decide(_:)`` is a pure
    /// function of it.
    public struct Input: Sendable {
        /// The request's retry configuration.
        public var configuration: AutoRetryConfiguration
        /// Retries made so far in this call (0 after the first attempt).
        public var retriesSoFar: Int
        /// The request's method.
        public var method: HTTPMethod
        /// Whether the request may be repeated after it may have reached the server.
        public var idempotency: Idempotency
        /// What went wrong.
        public var failure: FailureKind
        /// The host's reachability now.
        public var reachability: ReachabilityStatus
        /// Time since the call started, on the session's clock.
        public var elapsed: Duration
        /// The wall-clock time, to read `Retry-After` dates against when the response has no `Date`.
        public var now: Date
        /// A random number in `0..<1` that picks the backoff delay ("full jitter").
        public var jitter: Double

        /// Creates an input.
        public init(
            configuration: AutoRetryConfiguration, retriesSoFar: Int, method: HTTPMethod, idempotency: Idempotency = .byMethod,
            failure: FailureKind, reachability: ReachabilityStatus = .reachable, elapsed: Duration = .zero,
            now: Date = Date(timeIntervalSince1970: 0), jitter: Double = 1
        ) {
            self.configuration = configuration
            self.retriesSoFar = retriesSoFar
            self.method = method
            self.idempotency = idempotency
            self.failure = failure
            self.reachability = reachability
            self.elapsed = elapsed
            self.now = now
            self.jitter = jitter
        }
    }

    /// What to do after a failed attempt.
    public enum Verdict: Sendable, Equatable {
        /// Send the request again after this delay.
        case retry(after: Duration)
        /// Wait until the host is reachable (at most this long), then send the request again at once.
        case waitForNetwork(upTo: Duration)
        /// Stop: the failure is the answer.
        case giveUp(GiveUp)
    }

    /// Why a request is not retried.
    public enum GiveUp: Sendable, Equatable {
        /// The failure is not one that retrying can cure (a 404, a TLS failure, a body that does not parse…).
        case notRetryable
        /// The request may have reached the server and is not idempotent (see ``Idempotency``).
        case notIdempotent
        /// All ``AutoRetryConfiguration/maxRetryCount`` retries are spent.
        case retriesExhausted
        /// The host is unreachable and ``AutoRetryConfiguration/failWhenNotReachable`` is set.
        case notReachable
        /// The next retry would start after ``AutoRetryConfiguration/deadline``.
        case deadlineExceeded
    }
}
