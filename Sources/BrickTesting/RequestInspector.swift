public import BrickCore
public import FoundationEssentials

/// What a component would send, without any network: method, URL, headers and every body byte, after
/// the bricks, the session's headers and the interceptors (auth, header modifiers) have had their say.
///
/// ```swift
/// let sent = try await RequestInspector.inspect(CreateUser(name: "Ada"))
/// #expect(sent.method == .post)
/// #expect(sent.headers["Content-Type"] == "application/json")
/// #expect(sent.bodyText == #"{"name":"Ada"}"#)
/// ```
public enum RequestInspector {
    /// A request as it would go out.
    public struct Inspection: Sendable {
        /// The request itself, body parts included.
        public let request: TransportRequest
        /// Every byte of the body (files read, streams drained), empty when there is none.
        public let body: Data

        /// The request's method.
        public var method: HTTPMethod { request.method }
        /// The request's URL.
        public var url: String { request.url }
        /// The request's header fields.
        public var headers: HTTPHeaders { request.headers }
        /// The body as UTF-8 text (invalid bytes replaced).
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    /// Builds and adapts `component`'s request, and reads its body.
    /// - Throws: `BrickError` when the request cannot be built or adapted, or its body cannot be read.
    public static func inspect<Request: RequestType>(_ component: Request) async throws(BrickError) -> Inspection {
        let request = try await component.adaptedRequest()
        do {
            return Inspection(request: request, body: try await request.body?.collected() ?? Data())
        } catch {
            throw .transport(error)
        }
    }
}
