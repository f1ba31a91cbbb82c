import FoundationEssentials

/// Where a request's parameters go: the building blocks of the default body and of the body bricks.
public enum ParameterEncoding {
    /// The default: text parameters in the query for GET, HEAD and DELETE; otherwise a form body, or a
    /// multipart body when there are files.
    public static func methodDependent(_ parameters: ParameterBuilder, into request: inout TransportRequest) throws(RequestEncodingError) {
        // Nothing to place (most requests): the method's traits are not worked out either.
        guard !parameters.isEmpty else { return }
        if !parameters.fileParameters.isEmpty {
            try multipart(parameters, into: &request)
        } else if request.method.encodesParametersInQuery {
            try query(parameters, into: &request)
        } else {
            formURLEncoded(parameters, into: &request)
        }
    }

    /// Text parameters appended to the URL's query (before any fragment).
    /// - Throws: ``RequestEncodingError/unsupportedParameters(_:)`` when there are file parameters.
    public static func query(_ parameters: ParameterBuilder, into request: inout TransportRequest) throws(RequestEncodingError) {
        guard parameters.fileParameters.isEmpty else { throw .unsupportedParameters("files cannot go in a query string") }
        let query = parameters.urlEncoded()
        guard !query.isEmpty else { return }
        request.url = appendingQuery(query, to: request.url)
    }

    /// Text parameters as an `application/x-www-form-urlencoded` body (none when there are none).
    public static func formURLEncoded(_ parameters: ParameterBuilder, into request: inout TransportRequest) {
        let form = parameters.urlEncodedBody()
        guard !form.isEmpty else { return }
        request.body = .data(form)
        setKnownContentType("application/x-www-form-urlencoded", on: &request)
    }

    /// Text and file parameters as a `multipart/form-data` body.
    public static func multipart(
        _ parameters: ParameterBuilder, into request: inout TransportRequest, form: MultipartFormData = MultipartFormData()
    ) throws(RequestEncodingError) {
        request.body = try form.encode(parameters)
        request.headers["Content-Type"] = form.contentType
    }

    /// Sets `Content-Type` unless the request's headers already name one.
    public static func setContentType(_ type: String, on request: inout TransportRequest) {
        if request.headers["Content-Type"] == nil { request.headers["Content-Type"] = type }
    }

    /// ``setContentType(_:on:)`` for a type this library writes from a constant, a valid field value: the
    /// field is marked validated, and the request's check does not read it again.
    package static func setKnownContentType(_ type: String, on request: inout TransportRequest) {
        if !request.headers.contains(name: "Content-Type") { request.headers.addValidated(name: "Content-Type", value: type) }
    }

    /// `url` with `query` added to its query (before any fragment).
    static func appendingQuery(_ query: String, to url: String) -> String {
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let base = url[..<fragmentStart]
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + query + url[fragmentStart...]
    }
}
