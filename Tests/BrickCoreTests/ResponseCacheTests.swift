@testable import BrickCore
import Foundation
import Testing

/// The stock stores: bounded in bytes, least recently used first out, the disk one across instances, both
/// consistent under concurrent use.
@Suite struct ResponseCacheTests {
    func response(_ size: Int, tag: Int = 0) -> CachedResponse {
        CachedResponse(status: 200, headers: ["ETag": "\"\(tag)\"", "Content-Type": "application/octet-stream"],
                       body: Data(repeating: UInt8(truncatingIfNeeded: tag), count: size),
                       requestTime: Date(timeIntervalSince1970: 1_000), responseTime: Date(timeIntervalSince1970: 1_001),
                       varyingFields: ["accept": "x"])
    }

    final class TemporaryDirectory {
        let url: URL
        init() throws {
            url = URL(fileURLWithPath: "/tmp/brick-cache-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// Fills `cache` past its bound, touching the first entry so that it survives.
    func checkLeastRecentlyUsedEviction(_ cache: any ResponseCache, entrySize: Int) async {
        await cache.store(response(entrySize, tag: 0), for: "k0")
        for tag in 1...20 {
            await cache.store(response(entrySize, tag: tag), for: "k\(tag)")
            _ = await cache.cachedResponse(for: "k0")  // k0 stays the most recently used
        }
        #expect(await cache.cachedResponse(for: "k0") == response(entrySize, tag: 0))
        #expect(await cache.cachedResponse(for: "k20") == response(entrySize, tag: 20))
        #expect(await cache.cachedResponse(for: "k1") == nil)
    }

    @Test func memoryEvictsTheLeastRecentlyUsedAndKeepsToItsBound() async {
        let cache = MemoryResponseCache(capacity: 100_000)
        await checkLeastRecentlyUsedEviction(cache, entrySize: 10_000)
        #expect(cache.currentBytes <= 100_000)
        await cache.store(response(20_000), for: "too big")  // over an eighth of the capacity
        #expect(await cache.cachedResponse(for: "too big") == nil)
        await cache.removeAll()
        #expect(cache.currentBytes == 0)
    }

    @Test func diskEvictsTheLeastRecentlyUsedAndKeepsToItsBound() async throws {
        let directory = try TemporaryDirectory()
        let cache = try DiskResponseCache(directory: directory.url, capacity: 100_000)
        await checkLeastRecentlyUsedEviction(cache, entrySize: 10_000)
        #expect(cache.currentBytes <= 100_000)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        let onDisk = try files.reduce(0) { $0 + (try FileManager.default.attributesOfItem(atPath: directory.url.path + "/" + $1)[.size] as? Int ?? 0) }
        #expect(onDisk == cache.currentBytes)
        #expect(!files.contains { $0.hasSuffix(".tmp") })
    }

    @Test func diskResponsesOutliveTheCacheObject() async throws {
        let directory = try TemporaryDirectory()
        do {
            let cache = try DiskResponseCache(directory: directory.url)
            await cache.store(response(1000, tag: 7), for: "GET http://h/seven")
        }
        let reopened = try DiskResponseCache(directory: directory.url)
        #expect(await reopened.cachedResponse(for: "GET http://h/seven") == response(1000, tag: 7))
        #expect(reopened.currentBytes > 1000)
        await reopened.removeResponse(for: "GET http://h/seven")
        #expect(await reopened.cachedResponse(for: "GET http://h/seven") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test func aDamagedOrForeignFileIsAMissNotACrash() async throws {
        let directory = try TemporaryDirectory()
        let cache = try DiskResponseCache(directory: directory.url)
        let name = DiskResponseCache.fileName(for: "GET http://h/a")
        for junk in [Data(), Data([0, 0, 0]), Data([0, 0, 0, 200, 1, 2]), Data([0, 0, 0, 2]) + Data("{}".utf8)] {
            try junk.write(to: directory.url.appendingPathComponent(name))
            #expect(await cache.cachedResponse(for: "GET http://h/a") == nil)
        }
        await cache.store(response(10), for: "GET http://h/a")
        #expect(await cache.cachedResponse(for: "GET http://h/other-key-same-file") == nil)
    }

    @Test(arguments: ["memory", "disk"])
    func concurrentReadersAndWritersSeeWholeResponses(kind: String) async throws {
        let directory = try TemporaryDirectory()
        let cache: any ResponseCache = kind == "memory"
            ? MemoryResponseCache(capacity: 1 << 20) : try DiskResponseCache(directory: directory.url, capacity: 1 << 20)
        let torn = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var torn = 0
                    for round in 0..<50 {
                        let key = "k\(round % 5)"
                        await cache.store(self.response(2000 + round, tag: worker), for: key)
                        if let seen = await cache.cachedResponse(for: key) {
                            // Whoever wrote it, body and tag must belong together.
                            let tag = seen.head.headers["ETag"] ?? ""
                            if seen.body.contains(where: { "\"\($0)\"" != tag }) { torn += 1 }
                        }
                    }
                    return torn
                }
            }
            return await group.reduce(0, +)
        }
        #expect(torn == 0)
    }
}
