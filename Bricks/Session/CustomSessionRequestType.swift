/// Sends the request through a session the conforming type names, for example one per API:
/// ```swift
/// extension Session { static let github = Session(configuration: .init(baseURL: "https://api.github.com")) }
/// final class GetRepo: Component, GETRequestType, CustomSessionRequestType, JSONResponseType {
///     static var customSession: Session { .github }
/// }
/// ```
/// Within `Session.$current.withValue(_:)`, that session is used instead (a test's stubbed one).
/// Sets: `session` = `Session.current ?? Self.customSession`.
public protocol CustomSessionRequestType: RequestType {
    /// The session to send through. No default.
    static var customSession: Session { get }
}

extension CustomSessionRequestType {
    public var session: Session { Session.current ?? Self.customSession }
}
