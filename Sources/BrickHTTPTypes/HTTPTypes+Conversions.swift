#if !HTTPTypes
#error("BrickHTTPTypes needs the package trait HTTPTypes: .package(url: …, from: …, traits: [\"HTTPTypes\"]), or swift build --enable-all-traits in this repository")
#endif

#if HTTPTypes  // the package trait that brings this module's dependency (Package.swift)
public import BrickCore
public import HTTPTypes

// Conversions between the library's request and response values and swift-http-types' currency types, both
// ways. Names that HTTPTypes refuses (not an HTTP token) and values it would not send make the conversion
// fail (`nil`), never a silent change; our own values are checked again before anything is sent.

extension BrickTransport.HTTPMethod {
    /// The method of an `HTTPRequest`.
    public init(_ method: HTTPRequest.Method) { self.init(method.rawValue) }
}

extension HTTPRequest.Method {
    /// The method as HTTPTypes spells it; `nil` when the name is not an HTTP token.
    public init?(_ method: BrickTransport.HTTPMethod) { self.init(method.rawValue) }
}

extension HTTPHeaders {
    /// The fields of `fields`, in order, with their names as written.
    public init(_ fields: HTTPFields) {
        self.init(fields.map { HTTPHeaders.Field(name: $0.name.rawName, value: $0.value) })
    }
}

extension HTTPFields {
    /// The fields of `headers`, in order; `nil` when a name is not an HTTP token.
    public init?(_ headers: HTTPHeaders) {
        self.init()
        for field in headers {
            guard let name = HTTPField.Name(field.name) else { return nil }
            append(HTTPField(name: name, value: field.value))
        }
    }
}

extension HTTPResponse {
    /// The status, reason and fields of `head`; `nil` when the status is outside 0...999 or a field name is
    /// not an HTTP token.
    public init?(_ head: ResponseHead) {
        guard (0...999).contains(head.status), let fields = HTTPFields(head.headers) else { return nil }
        self.init(status: HTTPResponse.Status(code: head.status, reasonPhrase: head.reason), headerFields: fields)
    }
}

extension ResponseHead {
    /// The status, reason and fields of `response`.
    public init(_ response: HTTPResponse) {
        self.init(status: response.status.code, reason: response.status.reasonPhrase, headers: HTTPHeaders(response.headerFields))
    }
}

extension HTTPRequest {
    /// The method, URL and fields of `request` (its body and options are not part of an `HTTPRequest`);
    /// `nil` when the URL has no scheme and host or a name is not an HTTP token.
    public init?(_ request: TransportRequest) {
        guard let method = HTTPRequest.Method(request.method), let fields = HTTPFields(request.headers),
            let parts = URLParts(request.url)
        else { return nil }
        self.init(method: method, scheme: parts.scheme, authority: parts.authority, path: parts.path, headerFields: fields)
    }
}

extension TransportRequest {
    /// A request for `request`'s method, URL and fields, with `body` and `options`.
    ///
    /// The URL is `request.url` when it has a scheme and authority; else `request.path` (a path and query)
    /// resolved as the session resolves a relative path.
    public init(_ request: HTTPRequest, body: RequestBody? = nil, options: TransportOptions = TransportOptions()) {
        let url: String = if let scheme = request.scheme, let authority = request.authority {
            "\(scheme)://\(authority)\(request.path ?? "")"
        } else {
            request.path ?? "/"
        }
        self.init(method: HTTPMethod(request.method), url: url, headers: HTTPHeaders(request.headerFields), body: body, options: options)
    }
}

/// An absolute URL cut into what an `HTTPRequest` holds: scheme, authority, and the path with its query.
struct URLParts {
    let scheme: String
    let authority: String
    let path: String

    init?(_ url: String) {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return nil }
        scheme = String(url[..<colon])
        let rest = url[url.index(colon, offsetBy: 3)...]
        let pathStart = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        authority = String(rest[..<pathStart])
        let pathAndQuery = rest[pathStart...].prefix { $0 != "#" }
        path = pathAndQuery.isEmpty ? "/" : pathAndQuery.hasPrefix("?") ? "/" + pathAndQuery : String(pathAndQuery)
        guard !scheme.isEmpty, !authority.isEmpty else { return nil }
    }
}
#endif
