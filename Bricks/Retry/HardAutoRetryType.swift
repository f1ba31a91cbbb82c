/// Retries a failed request up to 10 times (backoff from 2 s, at most 30 minutes in all), waiting up to
/// 10 minutes for an unreachable host.
/// Sets: `autoRetryConfiguration` = `.hard`.
public protocol HardAutoRetryType: RequestType {}

extension HardAutoRetryType {
    public var autoRetryConfiguration: AutoRetryConfiguration { .hard }
}
