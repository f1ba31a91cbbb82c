import BrickRequest
import BrickTesting
import Testing
import TestServers

/// The README's example, exactly as written there: it names the shared session, and nothing in it was
/// changed to make it testable.
final class ReadmeGetUser: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType, JSONResponseType {
    let userID: String

    var URLString: String { "https://api.example.com/get" }

    init(userID: String) {
        self.userID = userID
        var parameter = ParameterBuilder()
        parameter.add(TextParameter(value: userID, name: "userID"))
        super.init(parameterBuilder: parameter)
    }
}

/// Getting started's class that takes its session from its caller (a session made from configuration, no static).
final class GetOrderWithItsCallersSession: Component, GETRequestType, SoftAutoRetryType, DecodableResponseType {
    struct Echo: Decodable, Sendable { let url: String }
    typealias SerializedObject = Echo
    let session: Session
    let orderID: Int
    var path: String { "/anything/orders/\(orderID)" }

    init(session: Session, orderID: Int) {
        self.session = session
        self.orderID = orderID
        super.init()
    }
}

/// A request class is tested as written: the session bricks use the scope's session (`Session.current`)
/// before their own, and concurrent tests each see their own.
@Suite struct SessionScopeTests {
    /// A session whose stub answers the README's URL for `userID` with `name`.
    func stubbedSession(userID: String, name: String) -> (Session, StubTransport) {
        let stub = StubTransport()
        stub.stub(.get, "https://api.example.com/get?userID=\(userID)", json: #"{"args": {"userID": "\#(userID)"}, "name": "\#(name)"}"#)
        return (Session(transport: stub), stub)
    }

    @Test func theReadmeClassAnswersFromAStubInsideTheScope() async throws {
        let (session, stub) = stubbedSession(userID: "100", name: "ada")
        let json = try await Session.$current.withValue(session) { try await ReadmeGetUser(userID: "100").response() }
        #expect(json["name"]?.stringValue == "ada")
        #expect(stub.requests.count == 1)
    }

    @Test func concurrentScopesSeeTheirOwnStubs() async throws {
        let names = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<20 {
                group.addTask {
                    let (session, _) = stubbedSession(userID: "\(index)", name: "user \(index)")
                    let json = try await Session.$current.withValue(session) { try await ReadmeGetUser(userID: "\(index)").response() }
                    return (index, json["name"]?.stringValue ?? "")
                }
            }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        #expect(names == Dictionary(uniqueKeysWithValues: (0..<20).map { ($0, "user \($0)") }))
    }

    @Test func theCallbackStyleSeesTheScopeToo() async throws {
        let (session, _) = stubbedSession(userID: "7", name: "grace")
        let outcome = await Session.$current.withValue(session) {
            await withCheckedContinuation { continuation in
                let request = ReadmeGetUser(userID: "7")
                request.response { continuation.resume(returning: $0) }
                request.resume()
            }
        }
        #expect(try outcome.result.get()["name"]?.stringValue == "grace")
    }

    @Test func outsideAnyScopeTheBrickKeepsItsOwnSession() {
        #expect(Session.current == nil)
        #expect(ReadmeGetUser(userID: "1").session === Session.shared)
    }

    @Test func aClassTakesTheSessionItsCallerMadeFromConfiguration() async throws {
        let server = try Httpbin.shared.get()
        let api = Session(configuration: .init(baseURL: server.url("")))
        let echo = try await GetOrderWithItsCallersSession(session: api, orderID: 7).response()
        #expect(echo.url == server.url("/anything/orders/7"))
        #expect(GetOrderWithItsCallersSession(session: api, orderID: 1).session === api)
    }
}
