/// HAR 1.2, the HTTP Archive: the JSON in which browsers' developer tools, mitmproxy and Polly.js save HTTP
/// exchanges. A cassette is one HAR file; these are its parts, as the format names them.
///
/// Reading is lenient where tools differ (fields the format marks optional, and a few that some tools leave
/// out, are optional here); writing fills every field the format requires. Fields of our own start with an
/// underscore, as the format asks.
public enum HAR {
    /// The whole file: `{"log": …}`.
    public struct File: Codable, Sendable {
        public var log: Log
        public init(log: Log) { self.log = log }
    }

    /// The archive: who wrote it and its exchanges, in the order they started.
    public struct Log: Codable, Sendable {
        public var version: String
        public var creator: Creator
        public var entries: [Entry]

        public init(version: String = "1.2", creator: Creator, entries: [Entry]) {
            self.version = version
            self.creator = creator
            self.entries = entries
        }

        private enum CodingKeys: String, CodingKey { case version, creator, pages, entries }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            version = try container.decode(String.self, forKey: .version)
            creator = try container.decode(Creator.self, forKey: .creator)
            entries = try container.decode([Entry].self, forKey: .entries)
        }

        /// Writes `pages` empty: a cassette's exchanges belong to no page.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(version, forKey: .version)
            try container.encode(creator, forKey: .creator)
            try container.encode([String](), forKey: .pages)
            try container.encode(entries, forKey: .entries)
        }
    }

    /// The program that wrote the archive.
    public struct Creator: Codable, Sendable {
        public var name: String
        public var version: String
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    /// One exchange: a request and its response (or, in ours, the transport error that ended it).
    public struct Entry: Codable, Sendable {
        /// When the request started, ISO 8601 (`2026-11-27T17:40:00.123Z`).
        public var startedDateTime: String
        /// Milliseconds from start to end: the sum of ``timings``' known parts.
        public var time: Double
        public var request: Request
        public var response: Response
        /// What a browser's cache did; always empty in ours.
        public var cache: Cache?
        public var timings: Timings?
        public var serverIPAddress: String?
        public var connection: String?
        public var comment: String?
        /// Ours: the transport error this attempt ended with, when it got no response (`response.status` 0).
        public var error: RecordedError?

        private enum CodingKeys: String, CodingKey {
            case startedDateTime, time, request, response, cache, timings, serverIPAddress, connection, comment
            case error = "_error"
        }
    }

    /// A request as sent.
    public struct Request: Codable, Sendable {
        public var method: String
        public var url: String
        public var httpVersion: String
        public var cookies: [Cookie]?
        public var headers: [Pair]
        public var queryString: [Pair]?
        public var postData: PostData?
        public var headersSize: Int?
        public var bodySize: Int?
        public var comment: String?
    }

    /// A response as received; its body is in ``content``, decoded from its content codings.
    public struct Response: Codable, Sendable {
        public var status: Int
        public var statusText: String
        public var httpVersion: String
        public var cookies: [Cookie]?
        public var headers: [Pair]
        public var content: Content
        public var redirectURL: String?
        public var headersSize: Int?
        public var bodySize: Int?
        public var comment: String?
    }

    /// A header field or a query item.
    public struct Pair: Codable, Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A cookie sent or set.
    public struct Cookie: Codable, Sendable {
        public var name: String
        public var value: String
        public var path: String?
        public var domain: String?
        public var expires: String?
        public var httpOnly: Bool?
        public var secure: Bool?
    }

    /// A request's body.
    public struct PostData: Codable, Sendable {
        public var mimeType: String
        /// The body as text, or in base64 when ``encoding`` says so.
        public var text: String?
        public var params: [Param]?
        /// Ours: `base64` when ``text`` is the body in base64 (a body that is not UTF-8).
        public var encoding: String?
        public var comment: String?

        private enum CodingKeys: String, CodingKey {
            case mimeType, text, params, comment
            case encoding = "_encoding"
        }
    }

    /// A posted parameter (of a form).
    public struct Param: Codable, Sendable {
        public var name: String
        public var value: String?
        public var fileName: String?
        public var contentType: String?
    }

    /// A response's body.
    public struct Content: Codable, Sendable {
        /// The body's length in bytes, decoded.
        public var size: Int
        /// Bytes its content codings saved, when known.
        public var compression: Int?
        public var mimeType: String?
        /// The body as text, or in base64 when ``encoding`` is `base64`; absent when it was left out.
        public var text: String?
        public var encoding: String?
        public var comment: String?
    }

    /// A browser cache's part in an exchange: empty in ours, and not read.
    public struct Cache: Codable, Sendable {
        public init() {}
    }

    /// Where an exchange's time went, in milliseconds; -1 where it does not apply.
    public struct Timings: Codable, Sendable {
        public var blocked: Double?
        public var dns: Double?
        public var connect: Double?
        public var send: Double?
        public var wait: Double?
        public var receive: Double?
        public var ssl: Double?
    }

    /// Ours: a transport error, by its kind's name and its message.
    public struct RecordedError: Codable, Sendable {
        public var kind: String
        public var message: String
    }
}
