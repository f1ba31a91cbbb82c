// Generated from Docs/Caching.md by .ci/doc-samples.py: edit the page, not this file.

import BrickRequest
import Foundation

fileprivate final class Dashboard: Component, GETRequestType, APISessionRequestType, JSONResponseType {
    var path: String { "/dashboard" }
    var cacheMode: CacheMode { .offlineFirst }
}
fileprivate func render(_ dashboard: JSON?, stale: Bool) {}

fileprivate enum SamplesOfCaching {

    // Swift block 1
    fileprivate static func sample1() async throws {
        var configuration = Session.Configuration(baseURL: "https://api.example.com")
        configuration.responseCache = try DiskResponseCache(directory: URL(fileURLWithPath: "/var/cache/myapp"),
                                                            capacity: 256 << 20)
        // or MemoryResponseCache(capacity: 16 << 20)
        let api = Session(configuration: configuration)

        let outcome = await api.dataResponse(for: TransportRequest(url: "/users/1"))   // or a request class on `api`
        outcome.cacheStatus   // .hit (nothing sent), .revalidated (a 304), .stale (served stale), .miss, .notUsed
    }

    // Swift block 3
    fileprivate static func sample3() async throws {
        for await outcome in Dashboard().cachedThenFresh() {
            render(outcome.value, stale: outcome.cacheStatus == .stale)
        }
    }
}
