/// Sends the request through the shared session.
/// Sets: `session` = `Session.shared`.
public protocol APISessionRequestType: RequestType {}

extension APISessionRequestType {
    public var session: Session { .shared }
}
