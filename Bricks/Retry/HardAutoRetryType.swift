/// Retries a failed request up to 10 times, waiting for reachability between attempts.
/// Sets: `autoRetryConfiguration` = `.hard`.
public protocol HardAutoRetryType: RequestType {}

extension HardAutoRetryType {
    public var autoRetryConfiguration: AutoRetryConfiguration { .hard }
}
