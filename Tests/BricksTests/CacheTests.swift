import BrickRequest
import BrickSystem
import BrickTransport
import Foundation
import LoopbackServer
import TestServers
import Testing

/// A GET through a given session, with a given cache mode.
final class CachedGet: Component, GETRequestType, AbsoluteURLType, DataResponseType {
    let session: Session
    let path: String
    let cacheMode: CacheMode
    let headers: HTTPHeaders
    init(_ url: String, session: Session, mode: CacheMode = .default, headers: HTTPHeaders = [:]) {
        self.session = session
        path = url
        cacheMode = mode
        self.headers = headers
        super.init()
    }
}

/// A call to a given URL through a given session; subclasses add the bricks.
class SessionCall: Component {
    let session: Session
    let path: String
    init(_ url: String, session: Session) {
        self.session = session
        path = url
        super.init()
    }
}

final class CacheOnlyGet: SessionCall, GETRequestType, AbsoluteURLType, CacheOnlyType, DataResponseType {}
final class OfflineFirstGet: SessionCall, GETRequestType, AbsoluteURLType, SoftAutoRetryType, DataResponseType {
    var cacheMode: CacheMode { .offlineFirst }
}
final class PostTo: SessionCall, POSTRequestType, AbsoluteURLType, DataResponseType {}

/// Caching against real servers: httpbin's `/cache`, `/cache/N`, `/etag` and `/response-headers`, and a
/// loopback server that counts what reaches it.
@Suite struct CacheTests {
    func cachedSession(_ cache: any ResponseCache = MemoryResponseCache()) -> Session {
        var configuration = Session.Configuration()
        configuration.responseCache = cache
        return Session(configuration: configuration)
    }

    func httpbin(_ path: String) throws -> String { try Httpbin.shared.get().url(path) }

    /// A server that counts requests and answers with `headers`, a body numbering the request, and 304 to a
    /// matching `If-None-Match`.
    final class CountingServer: Sendable {
        /// The `If-None-Match` of every request (`nil` when it had none), in order.
        final class Log: Sendable {
            let conditions = Locked<[String?]>([])
            let counter = Countdown()
        }
        let server: LoopbackServer
        let log = Log()
        init(headers: [(name: String, value: String)]) throws {
            let log = log
            let tag = headers.first { $0.name == "ETag" }?.value
            server = try LoopbackServer { request in
                log.counter.increment()
                log.conditions.withLock { $0.append(request.header("If-None-Match")) }
                if let tag, request.header("If-None-Match") == tag {
                    return ServerResponse(status: 304, headers: [("ETag", tag), ("Cache-Control", "max-age=300")])
                }
                return ServerResponse(status: 200, headers: headers, body: Array("answer \(log.counter.count)".utf8))
            }
        }
        var count: Int { log.counter.count }
        var conditions: [String?] { log.conditions.withLock { $0 } }
        var url: String { server.baseURL + "/thing" }
        deinit { server.stop() }
    }

    @Test func aFreshResponseIsServedWithoutSendingAnything() async throws {
        let origin = try CountingServer(headers: [("Cache-Control", "max-age=300")])
        let session = cachedSession()
        let first = await CachedGet(origin.url, session: session).dataResponse()
        let second = await CachedGet(origin.url, session: session).dataResponse()
        #expect(first.cacheStatus == .miss && second.cacheStatus == .hit)
        #expect(second.value == Data("answer 1".utf8))
        #expect(second.attempts.isEmpty)
        #expect(origin.count == 1)
    }

    /// A session's cache serves every caller of the session: an answer to a request with credentials is not
    /// kept for the next caller (another token, or none), unless the server marked it `public`.
    @Test(arguments: [["Authorization": "Bearer alice"], ["Cookie": "sid=alice"]] as [HTTPHeaders])
    func anAnswerToCredentialsIsNotServedToTheNextCaller(credentials: HTTPHeaders) async throws {
        let origin = try CountingServer(headers: [("Cache-Control", "max-age=300"), ("Set-Cookie", "sid=alice")])
        let session = cachedSession()
        let alice = await CachedGet(origin.url, session: session, headers: credentials).dataResponse()
        let bob = await CachedGet(origin.url, session: session).dataResponse()
        #expect(alice.cacheStatus == .miss && bob.cacheStatus == .miss)
        #expect(bob.value == Data("answer 2".utf8))
        #expect(origin.count == 2)
    }

    @Test func aPublicAnswerToCredentialsIsSharedWithoutItsCookie() async throws {
        let origin = try CountingServer(headers: [("Cache-Control", "public, max-age=300"), ("Set-Cookie", "sid=alice")])
        let session = cachedSession()
        _ = await CachedGet(origin.url, session: session, headers: ["Authorization": "Bearer alice"]).dataResponse()
        let bob = await CachedGet(origin.url, session: session).dataResponse()
        #expect(bob.cacheStatus == .hit)
        #expect(bob.response?.head.headers["Set-Cookie"] == nil)
        #expect(origin.count == 1)
    }

    @Test func aStaleResponseIsRevalidatedAndA304ServesTheStoredBody() async throws {
        let origin = try CountingServer(headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=0")])
        let session = cachedSession()
        _ = try await CachedGet(origin.url, session: session).response()
        let revalidated = await CachedGet(origin.url, session: session).dataResponse()
        #expect(revalidated.cacheStatus == .revalidated)
        #expect(revalidated.value == Data("answer 1".utf8))
        #expect(revalidated.statusCode == 200)
        #expect(origin.conditions == [nil, "\"v1\""])
        // The 304 said max-age=300: the refreshed entry now answers alone.
        let third = await CachedGet(origin.url, session: session).dataResponse()
        #expect(third.cacheStatus == .hit)
        #expect(origin.count == 2)
    }

    @Test func theModesDoWhatTheySay() async throws {
        let origin = try CountingServer(headers: [("Cache-Control", "max-age=300")])
        let session = cachedSession()
        await #expect(throws: BrickError.self) { _ = try await CacheOnlyGet(origin.url, session: session).response() }
        #expect(origin.count == 0)
        let skipped = await CachedGet(origin.url, session: session, mode: .withoutCache).dataResponse()
        #expect(skipped.cacheStatus == .notUsed)
        #expect(await CachedGet(origin.url, session: session).dataResponse().cacheStatus == .miss)  // nothing was stored
        let refreshed = await CachedGet(origin.url, session: session, mode: .notReturnCachedResponse).dataResponse()
        #expect(refreshed.cacheStatus == .miss && refreshed.value == Data("answer 3".utf8))
        let cached = await CacheOnlyGet(origin.url, session: session).dataResponse()
        #expect(cached.cacheStatus == .hit && cached.value == Data("answer 3".utf8))
        #expect(origin.count == 3)
    }

    @Test func aSuccessfulPostInvalidatesTheURL() async throws {
        let origin = try CountingServer(headers: [("Cache-Control", "max-age=300")])
        let session = cachedSession()
        _ = try await CachedGet(origin.url, session: session).response()
        _ = try await PostTo(origin.url, session: session).response()
        let after = await CachedGet(origin.url, session: session).dataResponse()
        #expect(after.cacheStatus == .miss)
        #expect(origin.count == 3)
    }

    @Test func varyKeepsAnswersForDifferentRequestsApart() async throws {
        let origin = try CountingServer(headers: [("Cache-Control", "max-age=300"), ("Vary", "Accept-Language")])
        let session = cachedSession()
        let czech = await CachedGet(origin.url, session: session, headers: ["Accept-Language": "cs"]).dataResponse()
        let english = await CachedGet(origin.url, session: session, headers: ["Accept-Language": "en"]).dataResponse()
        #expect(czech.cacheStatus == .miss && english.cacheStatus == .miss)
        let english2 = await CachedGet(origin.url, session: session, headers: ["Accept-Language": "en"]).dataResponse()
        #expect(english2.cacheStatus == .hit && english2.value == english.value)
    }

    @Test func httpbinCacheRevalidatesWithIfModifiedSinceOrIfNoneMatch() async throws {
        let session = cachedSession()
        let first = await CachedGet(try httpbin("/cache"), session: session).dataResponse()
        let second = await CachedGet(try httpbin("/cache"), session: session).dataResponse()
        #expect(first.cacheStatus == .miss)
        #expect(second.cacheStatus == .revalidated)
        #expect(second.value == first.value)
        let sent = try #require(second.request)
        #expect(sent.headers["If-None-Match"] != nil || sent.headers["If-Modified-Since"] != nil)
    }

    @Test func httpbinMaxAgeIsAHitAndAnETagIsRevalidated() async throws {
        let session = cachedSession()
        _ = try await CachedGet(try httpbin("/cache/300"), session: session).response()
        #expect(await CachedGet(try httpbin("/cache/300"), session: session).dataResponse().cacheStatus == .hit)
        let tagged = await CachedGet(try httpbin("/etag/brick"), session: session).dataResponse()
        let etag = await CachedGet(try httpbin("/etag/brick"), session: session).dataResponse()
        #expect(etag.cacheStatus == .revalidated)
        #expect(etag.request?.headers["If-None-Match"] == tagged.response?.head.headers["ETag"])
        #expect(etag.value == tagged.value)
    }

    @Test func noStoreIsNeverStored() async throws {
        let session = cachedSession()
        let url = try httpbin("/response-headers?Cache-Control=no-store&ETag=%22x%22")
        _ = try await CachedGet(url, session: session).response()
        #expect(await CachedGet(url, session: session).dataResponse().cacheStatus == .miss)
        await #expect(throws: BrickError.self) { _ = try await CacheOnlyGet(url, session: session).response() }
    }

    @Test func aDiskCacheServesAFreshSessionAfterTheFirstIsGone() async throws {
        let origin = try CountingServer(headers: [("Cache-Control", "max-age=300")])
        let directory = URL(fileURLWithPath: try Paths.scratchDirectory("disk-cache"))
        defer { Paths.removeTree(directory.path) }
        _ = try await CachedGet(origin.url, session: cachedSession(try DiskResponseCache(directory: directory))).response()
        let later = await CachedGet(origin.url, session: cachedSession(try DiskResponseCache(directory: directory))).dataResponse()
        #expect(later.cacheStatus == .hit && later.value == Data("answer 1".utf8))
        #expect(origin.count == 1)
    }

    @Test(arguments: ["memory", "file"])
    func aStreamGathersItsBodyInACacheProvider(kind: String) async throws {
        let provider: any BodyStore = kind == "memory" ? MemoryBodyStore() : try FileBodyStore()
        defer { (provider as? FileBodyStore)?.removeFile() }
        let head = try await CachedGet(try httpbin("/range/102400?chunk_size=10000&duration=0"), session: Session.shared)
            .stream().collect(into: provider)
        #expect(head.status == 200)
        let streamed = try provider.data()
        let collected = try await CachedGet(try httpbin("/range/102400?chunk_size=10000&duration=0"), session: Session.shared).response()
        #expect(streamed == collected && streamed.count == 102_400)
        try provider.clear()
        #expect(try provider.data().isEmpty)
    }
}
