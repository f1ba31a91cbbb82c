import BrickRequest
import Foundation
import Testing
import TestServers

/// A response's fields read from `DataResponse.headers`, and the common ones typed, against httpbin's
/// `/response-headers` (which answers with the fields its query names).
@Suite struct ResponseHeadersTests {
    func response(_ query: String) async throws -> DataResponse<Data> {
        let httpbin = try Httpbin.shared.get()
        let session = Session(configuration: Session.Configuration(baseURL: httpbin.url("")))
        return await SessionGet("/response-headers?" + query, session: session).dataResponse()
    }

    @Test func theCommonFieldsAreReadTyped() async throws {
        let answer = try await response(
            "ETag=%22v1%22&Last-Modified=Wed,%2021%20Oct%202015%2007:28:00%20GMT&Location=/elsewhere&X-Custom=yes")
        #expect(answer.statusCode == 200)
        #expect(answer.headers["x-custom"] == "yes")
        #expect(answer.headers.eTag == "\"v1\"")
        #expect(answer.headers.lastModified == Date(timeIntervalSince1970: 1_445_412_480))
        #expect(answer.headers.location == "/elsewhere")
        #expect(answer.headers.contentType?.hasPrefix("application/json") == true)
        #expect(answer.headers.contentLength == answer.response?.body.count)
        #expect(answer.headers.date != nil)
    }

    @Test func valuesTheFieldsDoNotAllowReadAsAbsent() async throws {
        let answer = try await response("Last-Modified=yesterday&ETag=")
        #expect(answer.headers.lastModified == nil)
        #expect(answer.headers.contentLength != nil)
        var odd = HTTPHeaders()
        odd["Content-Length"] = "99999999999999999999999"
        #expect(odd.contentLength == nil)
        odd["Content-Length"] = "-1"
        #expect(odd.contentLength == nil)
        odd["Content-Length"] = " 42 "
        #expect(odd.contentLength == 42)
    }

    @Test func aCallThatGotNoResponseHasNoFields() async throws {
        let session = Session(configuration: Session.Configuration(baseURL: "http://127.0.0.1:1"))
        let answer = await SessionGet("/", session: session).dataResponse()
        #expect(answer.error != nil)
        #expect(answer.headers.isEmpty)
    }
}
