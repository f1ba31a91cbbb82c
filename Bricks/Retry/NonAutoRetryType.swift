/// Never retries a failed request and never waits for the network: the first failure is the answer.
/// Sets: `autoRetryConfiguration` = `.none`.
public protocol NonAutoRetryType: RequestType {}

extension NonAutoRetryType {
    public var autoRetryConfiguration: AutoRetryConfiguration { .none }
}
