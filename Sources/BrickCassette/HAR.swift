/// HAR 1.2, the HTTP Archive: the JSON in which browsers' developer tools, mitmproxy and Polly.js save HTTP
/// exchanges. A cassette is one HAR file; these are its parts, as the format names them.
///
/// Reading is lenient where tools differ (fields the format marks optional, and a few that some tools leave
/// out, are optional here); writing fills every field the format requires. Fields of our own start with an
/// underscore, as the format asks.
public enum HAR {
    /// The whole file: `{"log": …}`.
    public struct File: Codable, Sendable {
        /// The archive.
        public var log: Log
        /// A file holding `log`.
        public init(log: Log) { self.log = log }
    }

    /// The archive: who wrote it and its exchanges, in the order they started.
    public struct Log: Codable, Sendable {
        /// The format's version: `1.2`.
        public var version: String
        /// The program that wrote the file.
        public var creator: Creator
        /// The exchanges, in the order they started.
        public var entries: [Entry]

        /// An archive of `entries` written by `creator`.
        public init(version: String = "1.2", creator: Creator, entries: [Entry]) {
            self.version = version
            self.creator = creator
            self.entries = entries
        }

        private enum CodingKeys: String, CodingKey { case version, creator, pages, entries }

        /// An archive of `entries` written by `creator`.
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
        /// The program's name (`BrickRequest`).
        public var name: String
        /// The program's version.
        public var version: String
        /// The program `name` at `version`.
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
        /// The request as sent.
        public var request: Request
        /// The response as received (status 0 when the attempt got none).
        public var response: Response
        /// What a browser's cache did; always empty in ours.
        public var cache: Cache?
        /// Where the exchange's time went.
        public var timings: Timings?
        /// The server's address, when the writer knew it (ours leaves it out).
        public var serverIPAddress: String?
        /// The connection's identifier, when the writer knew it (ours leaves it out).
        public var connection: String?
        /// A note from the writer.
        public var comment: String?
        /// Ours: the transport error this attempt ended with, when it got no response (`response.status` 0).
        public var error: RecordedError?

        private enum CodingKeys: String, CodingKey {
            case startedDateTime, time, request, response, cache, timings, serverIPAddress, connection, comment
            case error = "_error"
        }
    }
}
