extension Headers {
    /// `Accept`: the media types the client wants.
    public struct Accept: Header {
        public let name = "Accept"
        public let value: String
        /// The field with `value`.
        public init(_ value: String) { self.value = value }

        /// `Accept: application/json`.
        public static let applicationJson = Accept("application/json")
        /// `Accept: text/plain`.
        public static let textPlain = Accept("text/plain")
        /// `Accept: */*`.
        public static let any = Accept("*/*")
    }

    /// `Content-Type`: the media type of the body sent.
    public struct ContentType: Header {
        public let name = "Content-Type"
        public let value: String
        /// The field with `value`.
        public init(_ value: String) { self.value = value }

        /// `Content-Type: application/json`.
        public static let applicationJson = ContentType("application/json")
        /// `Content-Type: application/x-www-form-urlencoded`.
        public static let formURLEncoded = ContentType("application/x-www-form-urlencoded")
        /// `Content-Type: text/plain; charset=utf-8`.
        public static let textPlain = ContentType("text/plain; charset=utf-8")
        /// `Content-Type: application/octet-stream`.
        public static let octetStream = ContentType("application/octet-stream")
    }

    /// `Accept-Charset`: the charsets the client reads.
    public struct Charset: Header {
        public let name = "Accept-Charset"
        public let value: String
        /// The field with `value`.
        public init(_ value: String) { self.value = value }

        /// `Accept-Charset: utf-8`.
        public static let utf8 = Charset("utf-8")
    }

    /// `Accept-Language`.
    public struct AcceptLanguage: Header {
        public let name = "Accept-Language"
        public let value: String
        /// The field with `value`.
        public init(_ value: String) { self.value = value }
    }

    /// `User-Agent`, replacing the session's default.
    public struct UserAgent: Header {
        public let name = "User-Agent"
        public let value: String
        /// The field with `value`.
        public init(_ value: String) { self.value = value }
    }

    /// Any other field, for a header needed in one place only.
    public struct Custom: Header {
        public let name: String
        public let value: String
        /// The field `name` with `value`.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }
}
