// Generated from Docs/RequestBuilding.md by .ci/doc-samples.py: edit the page, not this file.

import BrickRequest
import Foundation
import Logging

fileprivate struct Stamp: AttemptStage {
    func send(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
        var request = request
        request.headers["X-Attempt"] = "\(call.attemptNumber)"
        return await next(request)
    }
}
/// Logs in for the first token and again when it expires.
fileprivate struct LoginTokens: TokenProvider {
    let login: @Sendable () async throws -> String
    func initialToken() async throws -> String { try await login() }
    func refreshToken(rejected: String) async throws -> String { try await login() }
}
fileprivate struct Settings { let apiBaseURL = "https://api.example.com" }
fileprivate struct Auth { func fetchToken() async throws -> String { "a-token" } }
fileprivate struct Order: Decodable, Sendable { let id: Int }
fileprivate final class GetUser: Component, GETRequestType, APISessionRequestType, DataResponseType {
    let userID: Int
    var URLString: String { "https://api.example.com/users/\(userID)" }
    init(userID: Int) { self.userID = userID; super.init() }
}
fileprivate final class GetReport: Component, GETRequestType, APISessionRequestType, CustomTimeoutType, DataResponseType {
    var URLString: String { "https://api.example.com/reports/latest" }
    var requestTimeout: Duration { .seconds(30) }
}

fileprivate enum SamplesOfRequestBuilding {

    // Swift block 1
    fileprivate static func sample1() async throws {
        let userID = 7
        let page: Int? = nil
        let photo = URL(fileURLWithPath: "/tmp/me.jpg")
        ParameterBuilder {
            TextParameter(userID, name: "id")                         // Int, Double, Bool, String…
            TextParameter(value: page, name: "page", catchOnNil: 1)   // nil → the fallback, or left out
            FileParameter(fileURL: photo, name: "photo")              // makes the body multipart
        }
    }

    // Swift block 5
    fileprivate static func sample5() async throws {
        let settings = Settings()
        let auth = Auth()
        var configuration = Session.Configuration(baseURL: settings.apiBaseURL)
        configuration.interceptors = [BearerAuthenticator(provider: LoginTokens(login: { try await auth.fetchToken() }))]
        let api = Session(configuration: configuration)

        let orders = try await api.send(.get, "/orders", as: [Order].self)   // Authorization: Bearer …, refreshed on a 401
    }

    // Swift block 6
    fileprivate static func sample6() async throws {
        var configuration = Session.Configuration(baseURL: "https://shop.example.com")
        configuration.cookies = CookieJar()                                   // in memory
        configuration.cookies = try CookieJar(file: "/var/lib/app/cookies.txt")   // or kept in a file
    }

    // Swift block 7
    fileprivate static func sample7() async throws {
        var configuration = Session.Configuration(baseURL: "https://api.example.com")
        configuration.interceptors = [RequestLogger(logger: Logger(label: "api"), defaultOptions: .default)]
    }

    // Swift block 8
    fileprivate static func sample8() async throws {
        let id = UUID()
        try await RequestLogger.$metadata.withValue(["request_id": "\(id)"]) { try await GetUser(userID: 7).response() }
    }
}
