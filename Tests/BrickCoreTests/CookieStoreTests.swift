import BrickCore
import BrickTesting
import Foundation
import Testing

/// The core knows cookies only through the `CookieStore` seam: a store of a user's own is asked on every
/// hop, as the library's jar is, with nothing of BrickCookies in between.
@Suite struct CookieStoreTests {
    /// Keeps one value per URL's path, and tells what it was asked (behind the lock it names).
    final class PathStore: CookieStore, @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [String: String] = [:]
        private(set) var asked: [String] = []

        func attach(to request: inout TransportRequest) {
            lock.withLock {
                asked.append("attach " + request.url)
                if let value = kept["any"] { request.headers["Cookie"] = request.headers["Cookie"].map { $0 + "; " + value } ?? value }
            }
        }

        func store(_ head: ResponseHead, from url: String) {
            lock.withLock {
                asked.append("store \(head.status) " + url)
                if let set = head.headers["Set-Cookie"] { kept["any"] = String(set.prefix { $0 != ";" }) }
            }
        }

        var log: [String] { lock.withLock { asked } }
    }

    @Test func aStoreOfYourOwnIsAskedOnEveryHopAndItsCookiesAreSent() async throws {
        let stub = StubTransport()
        stub.stub(.get, "https://api.test/login", status: 302, headers: ["Location": "/home", "Set-Cookie": "sid=one; Path=/"])
        stub.stub(.get, "https://api.test/home", status: 200)
        let store = PathStore()
        var configuration = Session.Configuration(baseURL: "https://api.test")
        configuration.cookies = store
        let session = Session(configuration: configuration, transport: stub)
        let response = await Retried("/login", session: session).dataResponse()
        #expect(response.response?.head.status == 200)
        #expect(store.log == [
            "attach https://api.test/login", "store 302 https://api.test/login", "attach https://api.test/home", "store 200 https://api.test/home",
        ])
        #expect(stub.requests.map { $0.headers["Cookie"] } == [nil, "sid=one"])
    }
}
