/// An HTTP request method.
///
/// The nine standard methods are predefined; any other token can be made with ``init(_:)``.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method as sent on the request line, for example `GET`.
    public let rawValue: String

    /// What every request asks of its method, worked out once when the method is made: comparing names
    /// cost a request up to six string comparisons for each question.
    private let traits: Traits

    /// Creates a method from its name as sent on the request line.
    public init(rawValue: String) {
        self.rawValue = rawValue
        traits = Traits(of: rawValue)
    }

    /// Creates a method from its name as sent on the request line.
    public init(_ name: String) { self.init(rawValue: name) }

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

    /// The answers to the questions above, as bits.
    private struct Traits: OptionSet, Hashable, Sendable {
        let rawValue: UInt8
        static let query = Traits(rawValue: 1)
        static let idempotent = Traits(rawValue: 2)
        static let safe = Traits(rawValue: 4)
        static let token = Traits(rawValue: 8)

        /// The traits of the method named `name` (case-sensitive, as methods are).
        init(of name: String) {
            switch name {
            case "GET", "HEAD": self = [.query, .idempotent, .safe, .token]
            case "DELETE": self = [.query, .idempotent, .token]
            case "OPTIONS", "TRACE": self = [.idempotent, .safe, .token]
            case "PUT": self = [.idempotent, .token]
            case "POST", "PATCH", "CONNECT": self = [.token]
            default:
                var text = name
                let isToken = text.withUTF8 { bytes in !bytes.isEmpty && bytes.allSatisfy(HTTPHeaders.isTokenByte) }
                self = isToken ? [.token] : []
            }
        }

        init(rawValue: UInt8) { self.rawValue = rawValue }
    }
}
