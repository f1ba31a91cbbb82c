/// Declares the request safe to send twice whatever its method, so that it is retried even after it may
/// have reached the server (a POST the server de-duplicates itself, for example).
/// Sets: `idempotency` = `.idempotent`.
public protocol IdempotentRequestType: RequestType {}

extension IdempotentRequestType {
    public var idempotency: Idempotency { .idempotent }
}
