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
}
