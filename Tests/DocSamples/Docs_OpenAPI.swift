// Generated from Docs/OpenAPI.md by .ci/doc-samples.py: edit the page, not this file.

import BrickRequest
import Foundation

fileprivate struct Filter: Encodable { let tag: [String] }
fileprivate struct Echo: Decodable, Sendable { let url: String }
fileprivate final class GetAnything: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType, EncodableQueryType,
    DecodableResponseType {
    typealias SerializedObject = Echo
    let id: String
    let query: Filter
    var path: String { "/anything/\(id)" }
    init(id: String, query: Filter) { self.id = id; self.query = query; super.init() }
}

fileprivate enum SamplesOfOpenAPI {

    // Swift block 2
    fileprivate static func sample2() async throws {
        let echo = try await GetAnything(id: "42", query: Filter(tag: ["a"])).response()
    }
}
