import BrickRequest
import Foundation
import TestServers
import Testing

/// The session's one-line GETs against httpbin: data, JSON, Decodable and text, with the session's parts applied.
@Suite struct ConvenienceTests {
    struct Slideshow: Decodable, Sendable {
        struct Show: Decodable, Sendable { let title: String; let slides: [Slide] }
        struct Slide: Decodable, Sendable { let title: String }
        let slideshow: Show
    }

    func session() throws -> Session {
        var configuration = Session.Configuration(baseURL: try Httpbin.shared.get().url(""))
        configuration.headers["X-Session"] = "conveniences"
        return Session(configuration: configuration)
    }

    @Test func dataComesBackWholeFromAPathAgainstTheBaseURL() async throws {
        let data = try await session().data(from: "/bytes/4096?seed=5")
        #expect(data.count == 4096)
    }

    @Test func jsonCarriesTheSessionAndCallHeaders() async throws {
        let json = try await session().json(from: "/headers", headers: ["X-Call": "one"])
        #expect(json["headers"]?["X-Session"]?.stringValue == "conveniences")
        #expect(json["headers"]?["X-Call"]?.stringValue == "one")
    }

    @Test func decodableValuesAreDecoded() async throws {
        let show = try await session().decode(Slideshow.self, from: "/json")
        #expect(show.slideshow.slides.count == 2)
        #expect(show.slideshow.title == "Sample Slide Show")
    }

    @Test func textIsDecodedInItsCharset() async throws {
        let text = try await session().string(from: "/encoding/utf8")
        #expect(text.contains("∮ E⋅da = Q"))
    }

    @Test func failuresAreTyped() async throws {
        let session = try session()
        await #expect(throws: BrickError.self) { _ = try await session.data(from: "/status/404") }
        do {
            _ = try await session.decode(Slideshow.self, from: "/html")
            Issue.record("HTML decoded as a slideshow")
        } catch {
            guard case .serialization(let cause, let response) = error else { Issue.record("got \(error)"); return }
            #expect(cause is ResponseSerializationError)
            #expect(response.head.status == 200)
        }
        do {
            _ = try await session.data(from: "/status/503")
            Issue.record("a 503 succeeded")
        } catch {
            guard case .validation(_, let response) = error else { Issue.record("got \(error)"); return }
            #expect(response.head.status == 503)
        }
    }

    /// What httpbin's `/anything` echoes.
    struct Echo: Decodable, Sendable {
        let method: String
        let args: [String: Arg]
        let form: [String: Arg]
        let json: JSON?
        let headers: [String: String]
    }
    /// httpbin gives a repeated parameter as a list, a single one as a string.
    enum Arg: Decodable, Sendable, Equatable {
        case one(String), many([String])
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) { self = .one(one) } else { self = .many(try container.decode([String].self)) }
        }
    }
    struct NewUser: Encodable, Sendable { let name: String; let id: UInt64 }
    struct Listing: Encodable, Sendable { let page: Int; let tag: [String]; let missing: String? }

    @Test func everyMethodHasAOneLinerWithEncodableQueryAndBodyAndADecodableResult() async throws {
        let session = try session()
        let big = UInt64(Int64.max) + 7
        let created = try await session.send(
            .post, "/anything", query: Listing(page: 2, tag: ["a", "b"], missing: nil), json: NewUser(name: "Ada", id: big),
            as: Echo.self)
        #expect(created.method == "POST")
        #expect(created.args == ["page": .one("2"), "tag": .many(["a", "b"])])
        #expect(created.json?["id"]?.uint64Value == big)  // the exact integer made the round trip
        #expect(created.headers["Content-Type"] == "application/json")
        #expect(created.headers["X-Session"] == "conveniences")
        for method in [HTTPMethod.put, .patch, .delete] {
            let echo = try await session.send(method, "/anything", form: ["name": "Ada Lovelace"], as: Echo.self)
            #expect(echo.method == method.rawValue)
            #expect(echo.form == ["name": .one("Ada Lovelace")])
        }
        let head = try await session.send(.head, "/get")
        #expect(head.head.status == 200 && head.body.isEmpty)
    }

    @Test func aURLIsAcceptedWhereverAStringIs() async throws {
        let base = try #require(URL(string: try Httpbin.shared.get().url("")))
        let session = Session(configuration: Session.Configuration(baseURL: base))
        let absolute = try #require(URL(string: "/bytes/16?seed=1", relativeTo: base))
        #expect(try await session.data(from: absolute).count == 16)
        #expect(try await session.send(.get, absolute).body.count == 16)
        #expect(try await session.send(.get, "/bytes/16?seed=1").body == (try await session.data(from: absolute)))
    }

    @Test func aOneLinerFailsTypedBeforeSendingWhatCannotBeEncoded() async throws {
        let session = try session()
        do {
            try await session.send(.post, "/anything", json: ["a": 1], form: ["b": 2])
            Issue.record("two bodies were sent")
        } catch {
            guard case .requestEncoding(.unsupportedParameters) = error else { Issue.record("got \(error)"); return }
        }
        do {
            try await session.send(.get, "/anything", query: [1, 2, 3])
            Issue.record("an unnamed query was sent")
        } catch {
            guard case .requestEncoding(.unencodableBody) = error else { Issue.record("got \(error)"); return }
        }
    }
}
