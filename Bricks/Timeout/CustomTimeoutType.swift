/// Fails the request with `timedOut` when it takes longer than ``requestTimeout`` in all.
/// Sets: `transportOptions` = the session's, with `timeout` = ``requestTimeout``.
public protocol CustomTimeoutType: RequestType {
    /// The longest the whole request may take, as a `Duration` (`var requestTimeout: Duration { .seconds(30) }`:
    /// the type written, so that `.seconds` has one to be found on). No default; ``RequestTimeout`` holds the
    /// stock bricks' values.
    var requestTimeout: Duration { get }
}

extension CustomTimeoutType {
    public var transportOptions: TransportOptions { transportOptions(timeout: requestTimeout) }
}
