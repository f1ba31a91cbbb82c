/// Fails the request with `timedOut` when it takes longer than ``RequestTimeout/short`` (10 s) in all.
/// Sets: `transportOptions` = the session's, with `timeout` = ``RequestTimeout/short``.
public protocol ShortTimeoutType: RequestType {}

extension ShortTimeoutType {
    public var transportOptions: TransportOptions { transportOptions(timeout: RequestTimeout.short) }
}
