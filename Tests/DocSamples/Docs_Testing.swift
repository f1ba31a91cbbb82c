// Generated from Docs/Testing.md by .ci/doc-samples.py: edit the page, not this file.

import BrickCassette
import BrickRequest
import BrickTesting
import Foundation
import Testing

fileprivate final class CreateUser: Component, POSTRequestType, APISessionRequestType, JSONBodyType, DataResponseType {
    struct NewUser: Encodable { let name: String }
    let jsonBody: NewUser
    var URLString: String { "https://api.test/users?dry=true" }
    init(name: String) { jsonBody = NewUser(name: name); super.init() }
}
fileprivate final class GetUser: Component, GETRequestType, APISessionRequestType, JSONResponseType {
    let userID: String
    var URLString: String { "https://api.test/users/\(userID)" }
    init(userID: String) { self.userID = userID; super.init() }
}
fileprivate final class Room: Component, WebSocketRequestType, APISessionRequestType {
    var URLString: String { "ws://chat.example.test/room" }
}
fileprivate final class Flaky: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType, StringResponseType {
    var URLString: String { "https://api.test/flaky" }
}
fileprivate let testTraits17: [any Trait] = [.cassette("Cassettes/users.har", like: .shared)]
fileprivate func aUserIsFound() async throws {
    let json = try await GetUser(userID: "100").response()
    #expect(json["args"]?["userID"]?.stringValue == "100")
}

fileprivate enum SamplesOfTesting {

    // Swift block 1
    fileprivate static func sample1() async throws {
        let sent = try await RequestInspector.inspect(CreateUser(name: "Ada"))
        #expect(sent.method == .post)
        #expect(sent.url == "https://api.test/users?dry=true")
        #expect(sent.headers["Content-Type"] == "application/json")
        #expect(sent.bodyText == #"{"name":"Ada"}"#)     // every body byte: files read, streams drained
    }

    // Swift block 2
    fileprivate static func sample2() async throws {
        let clock = ManualClock()
        let stub = StubTransport(clock: clock)
        stub.stub(.get, "https://api.test/users/1", json: #"{"id":1,"name":"Ada"}"#)
        stub.stub(.get, "https://api.test/down", reply: .failure(TransportError(.networkUnreachable, message: "offline")))
        stub.stub(.get, "https://api.test/slow", reply: .never)                        // until cancelled
        stub.stub(.get, "https://api.test/late", reply: .delayed(.seconds(5), .response(TransportResponse(head: ResponseHead(status: 200)))))
        stub.stub(.get, "https://api.test/flaky", replies: [                           // a script; the last repeats
            .failure(TransportError(.connectionLost, message: "reset")),
            .response(TransportResponse(head: ResponseHead(status: 200), body: Data("ok".utf8))),
        ])
        stub.stub(.get, "https://api.test/me", reply: .computed { request in         // depends on what was sent
            .response(TransportResponse(head: ResponseHead(status: request.headers["Authorization"] == nil ? 401 : 200)))
        })
        stub.stub(.request(.get, "https://api.test/search?q=ada&page=2", ignoringQueryOrder: true), json: "[]")
        stub.stub(.where { $0.method == .post && $0.headers["Idempotency-Key"] != nil }, status: 201)  // any predicate

        var configuration = Session.Configuration(baseURL: "https://api.test")
        configuration.clock = clock                                                    // retry delays use it too
        configuration.reachability = ManualReachability()                              // the network, by hand
        let session = Session(configuration: configuration, transport: stub)
        stub.requests                                                                  // everything sent, in order
    }

    // Swift block 3
    fileprivate static func sample3() async throws {
        let session = Session(transport: StubTransport())
        // GetUser names the shared session (APISessionRequestType); inside the scope it uses the stubbed one.
        let user = try await Session.$current.withValue(session) { try await GetUser(userID: "100").response() }
    }

    // Swift block 4
    fileprivate static func sample4() async throws {
        let peer = WebSocketPeer()
        let socket = try await Session.$current.withValue(Session(transport: peer)) { try await Room().connect() }
        peer.send(text: "welcome")
        var messages = socket.messages.makeAsyncIterator()
        let first = try await messages.next()                 // .text("welcome")
        try await socket.send(text: "hi")
        let received = await peer.nextMessage()               // .text("hi")
        let handshake = peer.handshakes.first                 // the handshake as the session's chain made it
        peer.close(code: 1000)
    }

    // Swift block 5
    fileprivate static func sample5() async throws {
        let clock = ManualClock()
        async let response = Flaky().dataResponse()
        await clock.waitForSleepers(count: 1)     // the retry delay has begun
        clock.advance(by: .seconds(30))           // and is over
        #expect(await response.value == "ok")
    }

    // Swift block 7
    fileprivate static func sample7() async throws {
        let api = Session.shared
        let cassette = try Cassette("Tests/Cassettes/users.har", mode: .once)
        let json = try await cassette.run(like: api) { try await GetUser(userID: "100").response() }
        // or: a session to keep, and the file written when you say
        let session = cassette.session(like: api)
        try cassette.save()
    }

    // Swift block 8
    fileprivate static func sample8() async throws {
        var redaction = CassetteRedaction()
        redaction.keepHeaders(["X-Request-Id"])   // not secret in this API
        redaction.keepJSONFields(["token"])       // a value secret in one place is scrubbed from all: keep each
        redaction.jsonFields.insert("pin")        // secret in this one
        let cassette = try Cassette("Tests/Cassettes/login.har", redaction: redaction)
    }
}
