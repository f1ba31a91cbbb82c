package import BrickCore
package import FoundationEssentials

/// How a queued request is kept in the database: method, URL, fields (as JSON), and the body as bytes or
/// as a file's path. Its options are not kept: it is sent with the queue's session's options.
package struct StoredRequest: Sendable {
    package var method: String
    package var url: String
    package var headers: Data
    package var body: Data?
    package var bodyFile: String?
    /// Why the store will not have it delivered (a shared database's row that names a file), or `nil`.
    package var refusal: String?

    /// `request` as stored, or `nil` for a body that cannot be (a stream).
    package init?(_ request: TransportRequest) {
        method = request.method.rawValue
        url = request.url
        headers = (try? JSONEncoder().encode(request.headers.map { [$0.name, $0.value] })) ?? Data("[]".utf8)
        if let requestBody = request.body {
            if let bytes = requestBody.data {
                body = bytes
            } else if requestBody.parts.count == 1, case .file(let path) = requestBody.parts[0] {
                bodyFile = path
            } else {
                return nil
            }
        }
    }

    package init(method: String, url: String, headers: Data, body: Data?, bodyFile: String?) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.bodyFile = bodyFile
    }

    /// What it counts against a queue's ``DeliveryQueue/Limits/maxBytes``: its fields, its body in memory,
    /// or its file's path.
    package var size: Int { headers.count + (body?.count ?? 0) + (bodyFile?.utf8.count ?? 0) }

    /// The request to send, with `options`.
    package func request(options: TransportOptions) -> TransportRequest {
        let pairs = (try? JSONDecoder().decode([[String]].self, from: headers)) ?? []
        let fields = HTTPHeaders(pairs.filter { $0.count == 2 }.map { HTTPHeaders.Field(name: $0[0], value: $0[1]) })
        let requestBody: RequestBody? = if let body { .data(body) } else if let bodyFile { .file(path: bodyFile) } else { nil }
        return TransportRequest(method: HTTPMethod(method), url: url, headers: fields, body: requestBody, options: options)
    }
}
