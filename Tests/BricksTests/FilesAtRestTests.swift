import BrickRequest
import Foundation
import Glibc
import TestServers
import Testing

/// What the library leaves on disk is its owner's alone, is never written through a link someone planted,
/// and never splices two versions of a resource into one file.
@Suite struct FilesAtRestTests {
    func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o777 : 0
    }

    /// The partial file and its record stay their owner's alone; the finished file gets what the umask leaves
    /// of 0666, as curl and HTTPie give it, or the mode the caller names.
    @Test func aPartialDownloadAndItsRecordAreOwnerOnlyAndTheFileGetsTheUmasksMode() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let directory = try Paths.scratchDirectory("at-rest")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let destination = URL(fileURLWithPath: directory + "/file.bin")
        let url = server.baseURL + "/blob?size=1000000&seed=8&key=modes&cut=300000&times=1"
        await #expect(throws: BrickError.self) { _ = try await FetchFile(url).download(to: destination) }
        #expect(mode(destination.path + ".part") == 0o600)
        #expect(mode(destination.path + ".part.json") == 0o600)
        _ = try await FetchFile(url).download(to: destination)
        #expect(mode(destination.path) == 0o666 & ~mode_t(try #require(Paths.umask())))
        _ = try await FetchFile(server.baseURL + "/blob?size=1000&seed=8&key=modes-private").download(to: destination, fileMode: 0o600)
        #expect(mode(destination.path) == 0o600)
        _ = try await FetchFile(server.baseURL + "/blob?size=1000&seed=8&key=modes-named").download(to: destination, fileMode: 0o640)
        #expect(mode(destination.path) == 0o640)
    }

    @Test func aLinkPlantedAtThePartialFileIsNotWrittenThrough() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let directory = try Paths.scratchDirectory("at-rest")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let victim = directory + "/victim"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        #expect(symlink(victim, directory + "/file.bin.part") == 0)
        let destination = URL(fileURLWithPath: directory + "/file.bin")
        let error = await #expect(throws: BrickError.self) {
            _ = try await FetchFile(server.baseURL + "/blob?size=1000&seed=9&key=link").download(to: destination)
        }
        guard case .file? = error else { Issue.record("expected a file error, got \(String(describing: error))"); return }
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == Data("precious".utf8))
        #expect(server.count("link") == 0)
    }

    /// A server that ignores `If-Range` answers a resume with a range of a newer version: its different
    /// `ETag` shows it, and the download starts over instead of appending the new bytes to the old ones.
    @Test func aRangeOfAChangedResourceIsNotSplicedOntoTheOldBytes() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let directory = try Paths.scratchDirectory("at-rest")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let destination = URL(fileURLWithPath: directory + "/file.bin")
        let size = 1_000_000
        let url = server.baseURL + "/blob?size=\(size)&seed=10&key=splice&cut=300000&times=1&change_after=1&lie=1"
        await #expect(throws: BrickError.self) { _ = try await FetchFile(url).download(to: destination) }
        let result = try await FetchFile(url).download(to: destination)
        #expect(try [UInt8](Data(contentsOf: destination)) == Blob.bytes(seed: 11, range: 0..<size))
        #expect(result.restarted)
        #expect(server.ranges("splice") == ["", "bytes=300000-", ""])
    }

    /// Owner-only, also when the directory was there before with a looser mode.
    @Test func theDiskCacheIsOwnerOnly() async throws {
        let directory = try Paths.scratchDirectory("at-rest") + "/cache"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        #expect(mode(directory) == 0o755)
        var configuration = Session.Configuration()
        configuration.responseCache = try DiskResponseCache(directory: URL(fileURLWithPath: directory))
        let session = Session(configuration: configuration)
        let url = try Httpbin.shared.get().url("/cache/60")
        _ = try await CachedGet(url, session: session).response()
        #expect(mode(directory) == 0o700)
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(!entries.isEmpty)
        for entry in entries { #expect(mode(directory + "/" + entry) == 0o600) }
    }
}
