/// A header field as a modifier: attach it to one request with
/// `RequestType.modifiers`, or to every request of a session with its interceptors.
///
/// ```swift
/// var modifiers: [any RequestModifier] { [Headers.Accept.applicationJson, Headers.Custom("X-Trace", traceID)] }
/// ```
/// It sets its field before the request goes out, replacing a field of the same name.
public protocol Header: Interceptor {
    /// The field's name.
    var name: String { get }
    /// The field's value.
    var value: String { get }
}

extension Header {
    /// High, so that interceptors of normal priority (and logging) see the field.
    public var priority: InterceptorPriority { .high }

    public func adapt(_ request: inout TransportRequest, context: RequestContext) async throws {
        request.headers[name] = value
    }
}

/// The catalogue of predefined headers; add your own as nested types in an extension.
public enum Headers {}
