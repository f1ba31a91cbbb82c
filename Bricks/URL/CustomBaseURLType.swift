/// Resolves the request's path against a base URL of its own instead of the session's. An absolute path
/// still ignores the base.
/// Sets: `baseURL` = `Self.customBaseURL`.
public protocol CustomBaseURLType: RequestType {
    /// The base URL. No default.
    static var customBaseURL: String { get }
}

extension CustomBaseURLType {
    public var baseURL: String? { Self.customBaseURL }
}
