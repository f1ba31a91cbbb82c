/// Fails the request with `timedOut` when it takes longer than ``requestTimeout`` in all.
/// Sets: `transportOptions` = the session's, with `timeout` = ``requestTimeout``.
public protocol CustomTimeoutType: RequestType {
    /// The longest the whole request may take. No default.
    var requestTimeout: Duration { get }
}

extension CustomTimeoutType {
    public var transportOptions: TransportOptions { transportOptions(timeout: requestTimeout) }
}
