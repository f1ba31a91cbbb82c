/// Never retries a failed request.
/// Sets: `autoRetryConfiguration` = `.none`.
public protocol NonAutoRetryType: RequestType {}

extension NonAutoRetryType {
    public var autoRetryConfiguration: AutoRetryConfiguration { .none }
}
