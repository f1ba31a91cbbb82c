/// Sends the request through the shared session (or, within `Session.$current.withValue(_:)`, through that
/// one: a test's stubbed session, for example).
/// Sets: `session` = `Session.current ?? Session.shared`.
public protocol APISessionRequestType: RequestType {}

extension APISessionRequestType {
    public var session: Session { Session.current ?? .shared }
}
