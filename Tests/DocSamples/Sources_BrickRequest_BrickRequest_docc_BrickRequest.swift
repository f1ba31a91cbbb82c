// Generated from Sources/BrickRequest/BrickRequest.docc/BrickRequest.md by .ci/doc-samples.py: edit the page, not this file.

import BrickRequest
import Foundation

fileprivate extension Session {
    // The API's session: its base URL (and, as needed, headers, retry rules, a cache) for every call to it.
    static let api = Session(configuration: Session.Configuration(baseURL: "https://httpbin.org"))
}

fileprivate final class GetUser: Component, GETRequestType, SoftAutoRetryType, JSONResponseType {
    let userID: String
    var session: Session { .api }
    var path: String { "/anything/users/\(userID)" }
    init(userID: String) { self.userID = userID; super.init() }
}


fileprivate enum SamplesOfBrickRequest {

    // Swift block 1
    fileprivate static func sample1() async throws {
        let user = try await GetUser(userID: "100").response()   // the JSON httpbin echoes
        print(user["url"]?.stringValue ?? "")
    }
}
