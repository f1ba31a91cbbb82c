// Generated from Docs/HTTPTypes.md by .ci/doc-samples.py: edit the page, not this file.

import BrickHTTPTypes
import BrickRequest
import Foundation
import HTTPTypes


fileprivate enum SamplesOfHTTPTypes {

    // Swift block 1
    fileprivate static func sample1() async throws {
        let api = Session(configuration: Session.Configuration(baseURL: "https://api.example.com"))
        let headers: HTTPHeaders = ["Accept": "application/json"]
        let head = ResponseHead(status: 200, headers: headers)
        let bytes = Data()
        let fields = HTTPFields(headers)                  // order, repeats and spelling kept; nil if a name is not a token
        let sameHeaders = fields.map(HTTPHeaders.init)
        let httpRequest = HTTPRequest(method: .post, scheme: "https", authority: "api.example.com", path: "/users")
        let request = TransportRequest(httpRequest, body: .data(bytes))
        let backAgain = HTTPRequest(request)              // nil without scheme and host
        let response = HTTPResponse(head)                 // nil for a status HTTPResponse cannot hold
        let sameHead = response.map(ResponseHead.init)
        let (httpResponse, data) = try await api.send(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/users/1"))
    }
}
