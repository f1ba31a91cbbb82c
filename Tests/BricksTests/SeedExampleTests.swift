import BrickRequest
import BrickTesting
import Foundation
import TestServers
import Testing

/// The seed README's example, signature and body as written there, against a real httpbin.
final class GetUser: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType, JSONResponseType {
    let userID: String
    let base: String

    var URLString: String { return base + "/get" }

    init(userID: String, base: String) {
        self.userID = userID
        self.base = base
        var parameter = ParameterBuilder()
        parameter.add(TextParameter(value: userID, name: "userID"))
        super.init(parameterBuilder: parameter)
    }
}

@Suite struct SeedExampleTests {
    @Test func theSeedExampleRunsWithCallbacks() async throws {
        let base = try Httpbin.shared.get().url("")
        let outcome = await withCheckedContinuation { continuation in
            let request = GetUser(userID: "100", base: base)
            request.response { response in continuation.resume(returning: response) }
            request.resume()
        }
        let json = try outcome.result.get()
        #expect(json["args"]?["userID"]?.stringValue == "100")
        #expect(outcome.statusCode == 200)
        #expect(outcome.metrics.map { $0.total > .zero } == true)
    }

    @Test func theSeedExampleRunsWithAsyncAwait() async throws {
        let json = try await GetUser(userID: "a b&c", base: try Httpbin.shared.get().url("")).response()
        #expect(json["args"]?["userID"]?.stringValue == "a b&c")
        #expect(json["headers"]?["User-Agent"]?.stringValue == "BrickRequest/\(Session.version)")
    }

    @Test func theSeedBricksSetWhatTheySay() {
        let request = GetUser(userID: "1", base: "http://h")
        #expect(request.method == .get)
        #expect(request.session === Session.shared)
        #expect(request.autoRetryConfiguration == .soft)
        #expect(request.autoRetryConfiguration.maxRetryCount == 3)
    }
}
