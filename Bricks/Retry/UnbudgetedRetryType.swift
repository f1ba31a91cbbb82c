/// Retries the request as its retry rules say, whatever its origin's retry budget holds: for the few calls
/// that must be retried while their origin fails (a health check, a last write before shutting down).
/// Sets: `originPolicy` = `.unbudgeted`.
public protocol UnbudgetedRetryType: RequestType {}

extension UnbudgetedRetryType {
    public var originPolicy: OriginPolicy { .unbudgeted }
}
