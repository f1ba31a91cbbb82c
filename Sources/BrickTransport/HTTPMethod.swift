/// An HTTP request method.
///
/// The nine standard methods are predefined; any other token can be made with ``init(_:)``.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method as sent on the request line, for example `GET`.
    public let rawValue: String

    /// Creates a method from its name as sent on the request line.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a method from its name as sent on the request line.
    public init(_ name: String) { self.rawValue = name }

    /// `GET`.
    public static let get = HTTPMethod("GET")
    /// `POST`.
    public static let post = HTTPMethod("POST")
    /// `PUT`.
    public static let put = HTTPMethod("PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod("PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod("DELETE")
    /// `HEAD`.
    public static let head = HTTPMethod("HEAD")
    /// `OPTIONS`.
    public static let options = HTTPMethod("OPTIONS")
    /// `TRACE`.
    public static let trace = HTTPMethod("TRACE")
    /// `CONNECT`.
    public static let connect = HTTPMethod("CONNECT")

    /// Whether parameters of this method travel in the URL's query rather than in a body:
    /// `true` for GET, HEAD and DELETE.
    public var encodesParametersInQuery: Bool { traits.contains(.query) }

    /// Whether sending the request twice has the effect of sending it once (RFC 9110 §9.2.2): `true` for
    /// GET, HEAD, OPTIONS, TRACE, PUT and DELETE.
    public var isIdempotent: Bool { traits.contains(.idempotent) }

    /// Whether the method only reads (RFC 9110 §9.2.1): `true` for GET, HEAD, OPTIONS and TRACE. A successful
    /// unsafe request invalidates what a cache holds for its URL.
    public var isSafe: Bool { traits.contains(.safe) }

    /// Whether the method is a valid token (RFC 9110 `token`), so that it can go on the request line.
    public var isValidToken: Bool { traits.contains(.token) }

    public var description: String { rawValue }

    /// What the questions above answer for this method. Worked out when asked, the name's length compared
    /// first: comparing the name with each standard one cost a POST six string comparisons a question.
    /// (Kept beside the name, the answers made every request in flight larger: it holds its method
    /// several times over.)
    private var traits: Traits { Traits(of: rawValue) }

    /// The answers to the questions above, as bits.
    private struct Traits: OptionSet {
        let rawValue: UInt8
        static let query = Traits(rawValue: 1)
        static let idempotent = Traits(rawValue: 2)
        static let safe = Traits(rawValue: 4)
        static let token = Traits(rawValue: 8)

        /// The traits of the method named `name` (case-sensitive, as methods are): the usual two first, and
        /// a name compared only with the standard names of its length.
        init(of name: String) {
            let count = name.utf8.count
            if count == 3, name == "GET" { self = .reading; return }
            if count == 4, name == "POST" { self = .token; return }
            self = switch count {
            case 3 where name == "PUT": .replacing
            case 4 where name == "HEAD": .reading
            case 5 where name == "PATCH": .token
            case 5 where name == "TRACE": .asking
            case 6 where name == "DELETE": .deleting
            case 7 where name == "OPTIONS": .asking
            case 7 where name == "CONNECT": .token
            default: Self.isToken(name) ? .token : Traits(rawValue: 0)
            }
        }

        // The standard methods' traits, named (each an array literal would be an array made at every
        // question in a debug build).
        /// GET and HEAD.
        static let reading = Traits(rawValue: query.rawValue | idempotent.rawValue | safe.rawValue | token.rawValue)
        /// OPTIONS and TRACE.
        static let asking = Traits(rawValue: idempotent.rawValue | safe.rawValue | token.rawValue)
        /// DELETE.
        static let deleting = Traits(rawValue: query.rawValue | idempotent.rawValue | token.rawValue)
        /// PUT.
        static let replacing = Traits(rawValue: idempotent.rawValue | token.rawValue)

        /// Whether `name` is an RFC 9110 token.
        private static func isToken(_ name: String) -> Bool {
            var text = name
            return text.withUTF8 { bytes in !bytes.isEmpty && bytes.allSatisfy(HTTPHeaders.isTokenByte) }
        }

        init(rawValue: UInt8) { self.rawValue = rawValue }
    }
}
