public import Logging

/// Logs requests and responses through swift-log: what it writes is chosen by
/// each request's `RequestType.requestLogging`, or by ``defaultOptions``. Secrets are redacted by
/// ``redaction``. Add it to a session's interceptors:
/// ```swift
/// configuration.interceptors = [RequestLogger(logger: Logger(label: "api"))]
/// ```
public struct RequestLogger: Interceptor {
    /// Where the entries go.
    public let logger: Logger
    /// What is logged for a request that names no options. Default is `RequestLogging.default`.
    public let defaultOptions: RequestLogging
    /// The level of every entry. Default is `.info`.
    public let level: Logger.Level
    /// What is hidden. Default is ``Redaction/init(headerNames:queryNames:)``'s standard lists.
    public let redaction: Redaction

    /// A logger writing to `logger`; see the properties for the defaults.
    public init(logger: Logger, defaultOptions: RequestLogging = .default, level: Logger.Level = .info, redaction: Redaction = Redaction()) {
        self.logger = logger
        self.defaultOptions = defaultOptions
        self.level = level
        self.redaction = redaction
    }

    /// Below every other interceptor: it sees the request exactly as sent, and the response as it arrived.
    public var priority: InterceptorPriority { .low.less }

    public func process(_ outcome: ResponseOutcome, context: RequestContext) async -> InterceptorDecision {
        let options = context.requestLogging ?? defaultOptions
        guard !options.isEmpty else { return .proceed(outcome) }
        logger.log(level: level, "\(LogEntry(outcome, context: context, options: options, redaction: redaction).text)")
        return .proceed(outcome)
    }
}
