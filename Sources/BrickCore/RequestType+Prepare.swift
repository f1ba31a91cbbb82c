import FoundationEssentials

extension RequestType {
    /// The request exactly as it will be sent: the session's headers then the request's, the parameters in
    /// the query (GET, HEAD, DELETE) or as a form body (other methods), and the transport options.
    ///
    /// Nothing is sent; this is also how to inspect what a brick does.
    public func makeTransportRequest() -> TransportRequest {
        var url = URLString
        var headers = session.configuration.headers
        headers.merge(self.headers)
        var body: Data?
        let parameters = parameterBuilder.urlEncoded()
        if !parameters.isEmpty {
            if method.encodesParametersInQuery {
                url = Self.appendingQuery(parameters, to: url)
            } else {
                body = Data(parameters.utf8)
                if headers["Content-Type"] == nil { headers["Content-Type"] = "application/x-www-form-urlencoded" }
            }
        }
        return TransportRequest(method: method, url: url, headers: headers, body: body, options: transportOptions)
    }

    /// `url` with `query` added to its query (before any fragment).
    static func appendingQuery(_ query: String, to url: String) -> String {
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let base = url[..<fragmentStart]
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + query + url[fragmentStart...]
    }
}
