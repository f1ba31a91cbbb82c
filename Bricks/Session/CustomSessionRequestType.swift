/// Sends the request through a session the conforming type names, for example one per API:
/// ```swift
/// extension Session { static let github = Session(configuration: .init(baseURL: "https://api.github.com")) }
/// final class GetRepo: Component, GETRequestType, CustomSessionRequestType, JSONResponseType {
///     static var customSession: Session { .github }
/// }
/// ```
/// Sets: `session` = `Self.customSession`.
public protocol CustomSessionRequestType: RequestType {
    /// The session to send through. No default.
    static var customSession: Session { get }
}

extension CustomSessionRequestType {
    public var session: Session { Self.customSession }
}
