extension HAR {
    /// A request as sent.
    public struct Request: Codable, Sendable {
        /// The method (`GET`).
        public var method: String
        /// The absolute URL, query included.
        public var url: String
        /// The protocol (`HTTP/1.1`, `HTTP/2`).
        public var httpVersion: String
        /// The cookies of its `Cookie` fields.
        public var cookies: [Cookie]?
        /// The header fields, in order.
        public var headers: [Pair]
        /// The URL's query items, percent-decoded, in order.
        public var queryString: [Pair]?
        /// The body, when it has one.
        public var postData: PostData?
        /// The head's size in bytes; -1 when not known.
        public var headersSize: Int?
        /// The body's size in bytes; -1 when not known.
        public var bodySize: Int?
        /// A note from the writer (ours: `redacted` when the body's text was).
        public var comment: String?
    }

    /// A response as received; its body is in ``content``, decoded from its content codings.
    public struct Response: Codable, Sendable {
        /// The status code; 0 when no response came.
        public var status: Int
        /// The status line's reason phrase.
        public var statusText: String
        /// The protocol (`HTTP/1.1`, `HTTP/2`).
        public var httpVersion: String
        /// The cookies its `Set-Cookie` fields set.
        public var cookies: [Cookie]?
        /// The header fields, in order.
        public var headers: [Pair]
        /// The body.
        public var content: Content
        /// The `Location` field's target; empty when there is none.
        public var redirectURL: String?
        /// The head's size in bytes; -1 when not known.
        public var headersSize: Int?
        /// The body's size as received in bytes; -1 when not known (a decoded body).
        public var bodySize: Int?
        /// A note from the writer.
        public var comment: String?
    }

    /// A header field or a query item.
    public struct Pair: Codable, Sendable, Equatable {
        /// The field's or item's name.
        public var name: String
        /// Its value.
        public var value: String
        /// The field or item `name` with `value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A cookie sent or set.
    public struct Cookie: Codable, Sendable {
        /// The cookie's name.
        public var name: String
        /// Its value.
        public var value: String
        /// Its `Path` attribute.
        public var path: String?
        /// Its `Domain` attribute.
        public var domain: String?
        /// Its `Expires` attribute, as written.
        public var expires: String?
        /// Whether it has the `HttpOnly` attribute.
        public var httpOnly: Bool?
        /// Whether it has the `Secure` attribute.
        public var secure: Bool?
    }

    /// A request's body.
    public struct PostData: Codable, Sendable {
        /// The body's `Content-Type`.
        public var mimeType: String
        /// The body as text, or in base64 when ``encoding`` says so.
        public var text: String?
        /// A form's parameters, as some writers list them (not read by replay).
        public var params: [Param]?
        /// Ours: `base64` when ``text`` is the body in base64 (a body that is not UTF-8).
        public var encoding: String?
        /// A note from the writer (ours: why a body is left out).
        public var comment: String?

        private enum CodingKeys: String, CodingKey {
            case mimeType, text, params, comment
            case encoding = "_encoding"
        }
    }

    /// A posted parameter (of a form).
    public struct Param: Codable, Sendable {
        /// The parameter's name.
        public var name: String
        /// Its value.
        public var value: String?
        /// The file it came from, for an upload.
        public var fileName: String?
        /// Its `Content-Type`, for an upload.
        public var contentType: String?
    }

    /// A response's body.
    public struct Content: Codable, Sendable {
        /// The body's length in bytes, decoded.
        public var size: Int
        /// Bytes its content codings saved, when known.
        public var compression: Int?
        /// The body's `Content-Type`.
        public var mimeType: String?
        /// The body as text, or in base64 when ``encoding`` is `base64`; absent when it was left out.
        public var text: String?
        /// `base64` when ``text`` is the body in base64.
        public var encoding: String?
        /// A note from the writer (ours: why a body is left out, or that it was redacted).
        public var comment: String?
    }

    /// A browser cache's part in an exchange: empty in ours, and not read.
    public struct Cache: Codable, Sendable {
        /// An empty record.
        public init() {}
    }

    /// Where an exchange's time went, in milliseconds; -1 where it does not apply.
    public struct Timings: Codable, Sendable {
        /// Waiting for a connection of the pool.
        public var blocked: Double?
        /// Resolving the host's name.
        public var dns: Double?
        /// Opening the connection, the TLS handshake included.
        public var connect: Double?
        /// Sending the request.
        public var send: Double?
        /// Waiting for the first byte of the response.
        public var wait: Double?
        /// Receiving the response.
        public var receive: Double?
        /// The TLS handshake (also counted in ``connect``).
        public var ssl: Double?
    }

    /// Ours: a transport error, by its kind's name and its message.
    public struct RecordedError: Codable, Sendable {
        /// The `TransportError.Kind`'s name (`connectionRefused`).
        public var kind: String
        /// The error's message.
        public var message: String
    }
}
