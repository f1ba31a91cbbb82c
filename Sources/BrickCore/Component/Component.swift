/// The base class of every request: subclass it once per API call and conform the subclass to bricks.
///
/// ```swift
/// final class GetUser: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType, JSONResponseType {
///     var path: String { "/users/\(userID)" }
///     …
/// }
/// ```
/// Components are compared by identity. A component is not `Sendable`: make it where you send it, or send
/// the value it returns.
open class Component: Hashable {
    /// The parameters sent with the request: in the query for GET, HEAD and DELETE, as a form body otherwise.
    public let parameterBuilder: ParameterBuilder

    /// A callback-style dispatch prepared by `response(queue:_:)`, waiting for ``resume()``.
    var pending: PendingDispatch?
    /// The running callback-style dispatch, for ``cancel()``.
    var running: Task<Void, Never>?

    /// Creates a component that sends `parameterBuilder`'s parameters.
    public init(parameterBuilder: ParameterBuilder = ParameterBuilder()) {
        self.parameterBuilder = parameterBuilder
    }

    /// Creates a component that sends `parameters`.
    public convenience init(parameters: ParameterBuilder) {
        self.init(parameterBuilder: parameters)
    }

    public static func == (lhs: Component, rhs: Component) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// What `resume()` starts: everything captured when the handler was attached, all of it `Sendable`.
struct PendingDispatch: Sendable {
    let start: @Sendable () async -> Void
}
