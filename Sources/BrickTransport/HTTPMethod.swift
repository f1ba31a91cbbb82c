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
    public var encodesParametersInQuery: Bool {
        self == .get || self == .head || self == .delete
    }

    /// Whether sending the request twice has the effect of sending it once (RFC 9110 §9.2.2): `true` for
    /// GET, HEAD, OPTIONS, TRACE, PUT and DELETE.
    public var isIdempotent: Bool {
        self == .get || self == .head || self == .options || self == .trace || self == .put || self == .delete
    }

    /// Whether the method only reads (RFC 9110 §9.2.1): `true` for GET, HEAD, OPTIONS and TRACE. A successful
    /// unsafe request invalidates what a cache holds for its URL.
    public var isSafe: Bool { self == .get || self == .head || self == .options || self == .trace }

    /// Whether the method is a valid token (RFC 9110 `token`), so that it can go on the request line.
    public var isValidToken: Bool {
        if self == .get || self == .post { return true }  // the usual two, tokens: not scanned on every request
        var text = rawValue
        return text.withUTF8 { bytes in !bytes.isEmpty && bytes.allSatisfy(HTTPHeaders.isTokenByte) }
    }

    public var description: String { rawValue }
}
