// Generated from Docs/GettingStarted.md by .ci/doc-samples.py: edit the page, not this file.

import BrickRequest
import Foundation

fileprivate struct Page: Encodable { let size: Int; let after: String? }
fileprivate struct NewUser: Encodable { let name: String }
fileprivate struct User: Decodable, Sendable { let id: Int; let name: String }

fileprivate extension Session {
    static let api = Session(configuration: .init(baseURL: "https://api.example.com/v1"))
}

fileprivate final class GetUser: Component, GETRequestType, CustomSessionRequestType, SoftAutoRetryType, DecodableResponseType {
    typealias SerializedObject = User
    static var customSession: Session { .api }

    let userID: Int
    var path: String { "/users/\(userID)" }          // resolved against the session's base URL

    init(userID: Int, verbose: Bool?) {
        self.userID = userID
        super.init(parameterBuilder: ParameterBuilder {
            TextParameter(value: verbose, name: "verbose", catchOnNil: false)   // nil sends the fallback
        })
    }
}
fileprivate struct Order: Decodable, Sendable { let id: Int }
fileprivate struct Settings { let apiBaseURL = "https://api.example.com" }
fileprivate final class GetOrder: Component, GETRequestType, SoftAutoRetryType, DecodableResponseType {
    typealias SerializedObject = Order
    let session: Session                         // the caller's: no static
    let orderID: Int
    var path: String { "/orders/\(orderID)" }

    init(session: Session, orderID: Int) {
        self.session = session
        self.orderID = orderID
        super.init()
    }
}

fileprivate final class DownloadLog: Component, GETRequestType, APISessionRequestType {
    var URLString: String { "https://example.com/app.log" }
}
fileprivate func write(_ chunk: Data) throws {}

fileprivate enum SamplesOfGettingStarted {

    // Swift block 1
    fileprivate static func sample1() async throws {
        let cursor: String? = nil
        let api = Session(configuration: .init(baseURL: URL(string: "https://api.example.com/v1")!))

        let user = try await api.send(.get, "/users/7", as: User.self)
        let page = try await api.send(.get, "/users", query: Page(size: 20, after: cursor), as: [User].self)
        let created = try await api.send(.post, "/users", json: NewUser(name: "Ada"), retry: .soft, as: User.self)
        try await api.send(.put, "/users/7/settings", form: ["theme": "dark"])   // the response, not decoded
        try await api.send(.delete, URL(string: "https://api.example.com/v1/users/7")!)
    }

    // Swift block 3
    fileprivate static func sample3() async throws {
        let settings = Settings()
        let api = Session(configuration: .init(baseURL: settings.apiBaseURL))      // made once, from configuration
        let order = try await GetOrder(session: api, orderID: 7).response()
    }

    // Swift block 4
    fileprivate static func sample4() async throws {
        let user = try await GetUser(userID: 1, verbose: nil).response()      // the value, or throws BrickError

        let outcome = await GetUser(userID: 1, verbose: true).dataResponse()   // never throws
        outcome.statusCode          // 200
        outcome.metrics?.total      // per-phase timings: dns, connect, tls, waiting, total; reusedConnection
        outcome.result              // Result<User, BrickError>

        GetUser(userID: 1, verbose: nil)
            .response(queue: .main) { outcome in print(outcome.result) }     // callback style
            .resume()                                                          // cancel() stops it
    }

    // Swift block 5
    fileprivate static func sample5() async throws {
        for try await event in DownloadLog().stream() {
            switch event {
            case .head(let head): print(head.status, head.headers["Content-Type"] ?? "")
            case .body(let chunk): try write(chunk)
            case .downloadProgress(let progress): print(progress)        // "350000/1048576 bytes"
            case .uploadProgress: break
            case .end(let metrics): print("done in", metrics.total)
            }
        }
    }

    // Swift block 6
    fileprivate static func sample6() async throws {
        let outcome = await GetUser(userID: 7, verbose: nil).dataResponse()
        print(outcome.timeline)            // #1 503 → waited 1.2 s → #2 200
        print(outcome.metrics?.waterfall)  // DNS 0.3 ms │ connect 100 µs │ TLS 4.2 ms │ server 12.0 ms │ transfer 400 µs
    }

    // Swift block 7
    fileprivate static func sample7() async throws {
        var configuration = Session.Configuration(baseURL: "https://api.example.com")
        configuration.headers["Accept"] = "application/json"       // sent with every request (before the request's own)
        configuration.transportOptions.timeout = .seconds(30)      // whole-request timeout
        var pool = CurlTransport.Configuration()
        pool.maxConnectionsPerHost = 16                            // libcurl pool limits
        let session = Session(configuration: configuration, connectionPool: pool)
    }
}
