/// Retries a failed request up to 3 times (backoff from 1 s, at most 2 minutes in all), waiting up to
/// 1 minute for an unreachable host.
/// Sets: `autoRetryConfiguration` = `.soft`.
public protocol SoftAutoRetryType: RequestType {}

extension SoftAutoRetryType {
    public var autoRetryConfiguration: AutoRetryConfiguration { .soft }
}
