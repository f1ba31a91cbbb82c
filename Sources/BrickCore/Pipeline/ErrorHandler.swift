/// What an error handler makes of a failure.
public enum ErrorResolution: Sendable {
    /// Not this handler's business: the next handler is asked.
    case unhandled
    /// Fail with this error instead.
    case fail(BrickError)
    /// Serialize this response instead, as if it had arrived.
    case recover(TransportResponse)
    /// Send the request again, through the whole pipeline, after `delay` on the session's clock.
    case retry(after: Duration, reason: String)
}

/// Decides what to do when a request fails: replace the error, recover with a response, or retry. Handlers
/// of a session run in order; the first that does not answer `.unhandled` decides (``CompositeErrorHandler``).
/// Cancelled requests never reach them.
public protocol ErrorHandler: Sendable {
    /// Looks at `error` and resolves it, or answers ``ErrorResolution/unhandled``.
    func handle(_ error: BrickError, context: RequestContext) async -> ErrorResolution
}

/// Asks several handlers in order; the first that handles the error decides.
public struct CompositeErrorHandler: ErrorHandler {
    /// The handlers, asked in order.
    public let handlers: [any ErrorHandler]

    /// Composes `handlers`.
    public init(_ handlers: [any ErrorHandler]) { self.handlers = handlers }

    public func handle(_ error: BrickError, context: RequestContext) async -> ErrorResolution {
        for handler in handlers {
            let resolution = await handler.handle(error, context: context)
            if case .unhandled = resolution { continue }
            return resolution
        }
        return .unhandled
    }
}
