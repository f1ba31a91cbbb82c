import BrickRequest
import Testing
import TestServers

/// A field written several times goes out several times, in the order written, on every path a request
/// takes: a request value with and without the session's headers, and a component's `headers`.
@Suite struct RepeatedFieldTests {
    let server: FaultServer
    init() throws { server = try FaultServer(keepAlive: true) }

    static let written: HTTPHeaders = HTTPHeaders([
        .init(name: "X-Multi", value: "one"), .init(name: "x-MULTI", value: "two"), .init(name: "X-multi", value: "three"),
        .init(name: "CACHE-control", value: "no-cache"), .init(name: "cache-Control", value: "no-store"),
    ])

    /// The lines of `written`'s names that the server read for `key`, in order.
    func received(_ key: String) -> [String] {
        (server.fieldLines(key).last ?? []).filter { line in
            let name = line.lowercased()
            return name.hasPrefix("x-multi:") || name.hasPrefix("cache-control:")
        }
    }

    static let expected = ["X-Multi: one", "x-MULTI: two", "X-multi: three", "CACHE-control: no-cache", "cache-Control: no-store"]

    @Test func aRequestValueSendsEveryRepeatedFieldInOrder() async throws {
        let plain = Session()
        _ = try await plain.send(TransportRequest(method: .get, url: server.baseURL + "/ok?key=value", headers: Self.written))
        #expect(received("value") == Self.expected)

        var configuration = Session.Configuration()
        configuration.headers = ["X-Multi": "session", "Cache-Control": "max-age=0", "X-Session": "kept"]
        let session = Session(configuration: configuration)
        _ = try await session.send(TransportRequest(method: .get, url: server.baseURL + "/ok?key=merged", headers: Self.written))
        #expect(received("merged") == Self.expected, "the request's fields replace the session's of the same name, all of them")
        #expect(server.fieldLines("merged").last?.contains("X-Session: kept") == true)
    }

    final class Repeating: Component, GETRequestType, APISessionRequestType, StringResponseType {
        let url: String
        init(url: String) {
            self.url = url
            super.init()
        }
        var URLString: String { url }
        var headers: HTTPHeaders { RepeatedFieldTests.written }
    }

    @Test func aComponentsHeadersKeepEveryRepeatedField() async throws {
        let call = Repeating(url: server.baseURL + "/ok?key=component")
        _ = try await call.dataResponse().result.get()
        #expect(received("component") == Self.expected)
    }
}
