import BrickCurl
import Foundation
import TestServers
import Testing

/// One transport for most tests, so that they also exercise one engine under concurrent use.
let sharedTransport = CurlTransport()

func transport() throws -> CurlTransport { try #require(sharedTransport) }
func httpbin() throws -> Httpbin { try Httpbin.shared.get() }
func nginx() throws -> Nginx { try Nginx.shared.get() }

/// Sends one request and collects the response.
func send(
    _ url: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:], body: Data? = nil, bodyParts: RequestBody? = nil,
    options: TransportOptions = TransportOptions(), through custom: CurlTransport? = nil
) async throws -> TransportResponse {
    let request = TransportRequest(method: method, url: url, headers: headers, body: bodyParts ?? body.map(RequestBody.data), options: options)
    return try await (custom ?? transport()).makeTransfer(for: request).response()
}

/// Sends one request and returns the error it fails with (or fails the test if it succeeds).
func failure(
    _ url: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:], options: TransportOptions = TransportOptions(),
    through custom: CurlTransport? = nil
) async throws -> TransportError {
    do {
        let response = try await send(url, method: method, headers: headers, options: options, through: custom)
        Issue.record("expected a failure, got status \(response.head.status)")
        return TransportError(.other, message: "no failure")
    } catch let error as TransportError {
        return error
    }
}

/// The body parsed as a JSON object.
func json(_ response: TransportResponse) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
}
