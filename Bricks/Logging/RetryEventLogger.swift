public import Logging

/// Logs what the retry machinery and the origin protections do, through swift-log: each `RetryEvent` as one
/// line with metadata (`request`, `server.origin` or `server.address`, and the event's numbers). A wait, a
/// retry, a hold and a hedge are `info`; a refused retry, a breaker that opens and a call given up are
/// `notice`. Add it as the session's retry observer:
/// ```swift
/// configuration.retryObserver = RetryEventLogger(logger: Logger(label: "api")).observe
/// ```
public struct RetryEventLogger: Sendable {
    /// Where the lines go.
    public let logger: Logger

    /// A logger writing to `logger`.
    public init(logger: Logger) { self.logger = logger }

    /// Logs `event`.
    public func observe(_ event: RetryEvent) {
        let (level, message, metadata) = Self.line(for: event)
        logger.log(level: level, "\(message)", metadata: metadata)
    }

    static func line(for event: RetryEvent) -> (Logger.Level, String, Logger.Metadata) {
        switch event {
        case .waitingForNetwork(let request, let host, let limit):
            (.info, "\(request) waits for the route to \(host) (at most \(limit))", ["request": "\(request)", "server.address": "\(host)"])
        case .networkReturned(let request, let host, let waited):
            (.info, "\(request): the route to \(host) is back after \(waited)", ["request": "\(request)", "server.address": "\(host)"])
        case .retrying(let request, let attempt, let delay, let failure):
            (.info, "\(request) attempt \(attempt) failed (\(failure.rootCause)); retrying in \(delay)",
             ["request": "\(request)", "attempt": "\(attempt)"])
        case .gaveUp(let request, let failure):
            (.notice, "\(request) \(failure)", ["request": "\(request)", "attempts": "\(failure.attempts.count)"])
        case .retryNotTaken(let request, let origin, _):
            (.notice, "\(request): retry not taken, the retry budget of \(origin) is spent", ["request": "\(request)", "server.origin": "\(origin)"])
        case .heldBack(let request, let origin, let duration):
            (.info, "\(request): \(origin) holds calls back for \(duration) (Retry-After)", ["request": "\(request)", "server.origin": "\(origin)"])
        case .circuitOpened(let origin, let duration):
            (.notice, "the circuit breaker of \(origin) opened for \(duration)", ["server.origin": "\(origin)", "state": "open"])
        case .circuitClosed(let origin):
            (.info, "the circuit breaker of \(origin) closed", ["server.origin": "\(origin)", "state": "closed"])
        case .hedging(let request, let hedge):
            (.info, "\(request) sent hedge \(hedge)", ["request": "\(request)", "hedge": "\(hedge)"])
        }
    }
}
