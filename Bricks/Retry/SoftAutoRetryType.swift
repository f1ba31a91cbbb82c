/// Retries a failed request up to 3 times, waiting for reachability between attempts.
/// Sets: `autoRetryConfiguration` = `.soft`.
public protocol SoftAutoRetryType: RequestType {}

extension SoftAutoRetryType {
    public var autoRetryConfiguration: AutoRetryConfiguration { .soft }
}
