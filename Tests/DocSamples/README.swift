// Generated from README.md by .ci/doc-samples.py: edit the page, not this file.

import BrickCassette
import BrickRequest
import BrickTesting
import Foundation
import Testing

// runs against the local httpbin
fileprivate final class GetArchive: Component, GETRequestType, APISessionRequestType {
    var URLString: String { "https://httpbin.org/bytes/4096" }
}
fileprivate struct NewUser: Encodable { let name: String }
fileprivate struct User: Decodable, Sendable { let url: String }  // what httpbin's /anything echoes
fileprivate final class GetUser: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType, JSONResponseType {
    let userID: String

    var URLString: String { "https://httpbin.org/get" }

    init(userID: String) {
        self.userID = userID
        var parameter = ParameterBuilder()
        parameter.add(TextParameter(value: userID, name: "userID"))
        super.init(parameterBuilder: parameter)
    }
}


fileprivate enum SamplesOfREADME {

    // Swift block 1
    fileprivate static func sample1() async throws {
        let api = Session(configuration: Session.Configuration(baseURL: "https://httpbin.org/anything"), transport: Session.current?.transport ?? StubTransport())
        let stub = StubTransport()
        stub.stub(.get, "https://httpbin.org/get?userID=100", json: #"{"args": {"userID": "100"}}"#)
        // The callback style: the handler runs on a queue you choose, never on the engine thread.
        let request = GetUser(userID: "100")
        request.response { response in
            switch response.result {
            case .success(let json): print(json["args"]?["userID"]?.stringValue ?? "")
            case .failure(let error): print(error)
            }
        }
        request.resume()

        // async/await
        let json = try await GetUser(userID: "100").response()

        // streaming: head, body chunks, upload and download progress, end — a slow consumer pauses the transfer
        for try await event in GetUser(userID: "100").stream() { print(event) }

        // a file, resumed with a range after a cut (or in the next process), moved into place when complete
        let file = try await GetArchive().download(to: URL(fileURLWithPath: "/tmp/archive.tar")) { print($0) }

        // one-liners through a session, any method, Codable both ways; HTTP caching when the session has a response cache
        let user = try await api.send(.post, "/users", json: NewUser(name: "Ada"), as: User.self)

        // in a unit test, the same class answers from a stub (BrickTesting), with no change to it
        let stubbed = try await Session.$current.withValue(Session(transport: stub)) { try await GetUser(userID: "100").response() }

    }

    // Swift block 2
    fileprivate static func sample2() async throws {
        let replayed = try await Cassette("Tests/Cassettes/user.har").run(like: .shared) { try await GetUser(userID: "100").response() }
    }
}

@Test fileprivate func swiftBlock1RunsAgainstTheLocalHttpbin() async throws {
    try await againstLocalHttpbin { try await SamplesOfREADME.sample1() }
}
