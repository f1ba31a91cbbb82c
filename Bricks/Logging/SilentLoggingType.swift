/// Keeps the request out of the logs (for example one that carries credentials in its body).
/// Sets: `requestLogging` = `RequestLogging.disabled`.
public protocol SilentLoggingType: RequestType {}

extension SilentLoggingType {
    public var requestLogging: RequestLogging? { .disabled }
}
