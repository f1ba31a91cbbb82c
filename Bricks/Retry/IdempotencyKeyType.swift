/// Sends an `Idempotency-Key` header — a new random value per call, the same on each of its attempts — so
/// that a server that honours it can de-duplicate retries; the request is then retried like an idempotent one.
/// Sets: `idempotency` = `.key(header: "Idempotency-Key")`.
public protocol IdempotencyKeyType: RequestType {}

extension IdempotencyKeyType {
    public var idempotency: Idempotency { .key(header: "Idempotency-Key") }
}
