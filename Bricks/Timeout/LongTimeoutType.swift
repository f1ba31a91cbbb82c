/// Lets the request take up to ``RequestTimeout/long`` (5 min) in all.
/// Sets: `transportOptions` = the session's, with `timeout` = ``RequestTimeout/long``.
public protocol LongTimeoutType: RequestType {}

extension LongTimeoutType {
    public var transportOptions: TransportOptions { transportOptions(timeout: RequestTimeout.long) }
}
