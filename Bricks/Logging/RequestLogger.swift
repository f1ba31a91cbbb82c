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

    /// Metadata added to every entry logged within a scope, on top of the entry's own fields: what a caller
    /// knows of a request that the library does not (a request id, a user), flowing from the caller into
    /// every log line of the requests it makes there (task-local: child tasks see it, other tasks do not).
    ///
    /// ```swift
    /// try await RequestLogger.$metadata.withValue(["request_id": "\(id)"]) { try await GetUser(userID: "7").response() }
    /// ```
    /// A logger made with a swift-log `MetadataProvider` adds that provider's fields as well.
    @TaskLocal public static var metadata: Logger.Metadata = [:]

    /// Below every other interceptor: it sees the request exactly as sent, and the response as it arrived.
    public var priority: InterceptorPriority { .low.less }

    public func process(_ outcome: ResponseOutcome, context: RequestContext) async -> InterceptorDecision {
        let options = context.requestLogging ?? defaultOptions
        guard !options.isEmpty else { return .proceed(outcome) }
        let entry = LogEntry(outcome, context: context, options: options, redaction: redaction)
        logger.log(level: level, entry.message, metadata: Self.metadata.merging(entry.metadata) { _, entry in entry })
        return .proceed(outcome)
    }
}
