/// Logs everything about the request: URL, status, time, headers, bodies and the cURL command (secrets
/// redacted), through the session's ``RequestLogger``.
/// Sets: `requestLogging` = `RequestLogging.all`.
public protocol VerboseLoggingType: RequestType {}

extension VerboseLoggingType {
    public var requestLogging: RequestLogging? { .all }
}
