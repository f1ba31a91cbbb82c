import BrickSystem
import BrickTransport
public import FoundationEssentials

/// A ``ResponseCache`` on disk, bounded in bytes, that survives the process: one file per response in
/// ``directory``, least recently used first to go.
///
/// Each file is written to a temporary name and renamed into place (`writeAtomically(_:to:)`), so a reader (in this process or
/// another) never sees half a response. The index of sizes and uses lives in memory, rebuilt from the
/// directory (by modification time) when the cache is created. Storing is best effort: a response that
/// cannot be written is simply not cached.
public final class DiskResponseCache: ResponseCache {
    private struct State {
        var files: [String: (size: Int, used: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The stored form of a response, before its body: the key (to tell hash collisions apart) and the rest.
    private struct Meta: Codable {
        var key: String
        var status: Int
        var headers: HTTPHeaders
        var requestTime: Date
        var responseTime: Date
        var varyingFields: [String: String]
    }

    /// The directory holding the responses.
    public let directory: String
    /// The most bytes kept on disk.
    public let capacity: Int
    private let state = Locked(State())
    private static let suffix = ".brickcache"

    /// Opens (creating it if needed) a cache in `directory` of at most `capacity` bytes (default 256 MiB);
    /// a response larger than an eighth of it is not kept. The directory is made owner-only (0700), also when
    /// it was there before.
    /// - Throws: ``FileError`` when the directory cannot be created or made owner-only (another user's).
    public init(directory: URL, capacity: Int = 256 << 20) throws(FileError) {
        self.directory = directory.path
        self.capacity = max(0, capacity)
        // Owner-only: entries hold full URLs (tokens), `Set-Cookie` fields and private bodies.
        do {
            try FileManager.default.createDirectory(
                atPath: self.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw FileError(.open, path: self.directory, osErrno: SystemError.last.code)
        }
        // A directory that was there keeps its mode through `createDirectory`: it is made owner-only here (a
        // directory of another user's cannot be, and is refused).
        if let failure = Paths.setPermissions(self.directory, 0o700) {
            throw FileError(.open, path: self.directory, osErrno: failure.code)
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: self.directory)) ?? []
        var found: [(name: String, size: Int, modified: Int)] = []
        for name in names where name.hasSuffix(Self.suffix) {
            guard let status = Paths.status(of: self.directory + "/" + name) else { continue }
            found.append((name, Int(status.size), status.modified))
        }
        state.withLock { state in
            for file in found.sorted(by: { $0.modified < $1.modified }) {
                state.clock += 1
                state.files[file.name] = (file.size, state.clock)
                state.bytes += file.size
            }
        }
    }

    /// Bytes held on disk now, as the index counts them.
    public var currentBytes: Int { state.withLock { $0.bytes } }

    public func cachedResponse(for key: String) async -> CachedResponse? {
        let name = Self.fileName(for: key)
        guard let data = FileManager.default.contents(atPath: directory + "/" + name), let entry = Self.decode(data, key: key)
        else { return nil }
        state.withLock { state in
            state.clock += 1
            state.files[name]?.used = state.clock
        }
        return entry
    }

    /// The response a stored file holds for `key`: a 4-byte big-endian length, that many bytes of JSON
    /// metadata, then the body. `nil` for a file too short, damaged, or stored for another key.
    static func decode(_ data: Data, key: String) -> CachedResponse? {
        guard data.count >= 4 else { return nil }
        let metaLength = data.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard metaLength <= data.count - 4,
            let meta = try? JSONDecoder().decode(Meta.self, from: data.dropFirst(4).prefix(metaLength)), meta.key == key
        else { return nil }
        return CachedResponse(
            status: meta.status, headers: meta.headers, body: Data(data.dropFirst(4 + metaLength)),
            requestTime: meta.requestTime, responseTime: meta.responseTime, varyingFields: meta.varyingFields)
    }

    public func store(_ response: CachedResponse, for key: String) async {
        let name = Self.fileName(for: key)
        let meta = Meta(
            key: key, status: response.status, headers: response.headers, requestTime: response.requestTime,
            responseTime: response.responseTime, varyingFields: response.varyingFields)
        guard let encoded = try? JSONEncoder().encode(meta), encoded.count < Int(UInt32.max) else { return }
        var file = Data([24, 16, 8, 0].map { UInt8(truncatingIfNeeded: encoded.count >> $0) })
        file.append(encoded)
        file.append(response.body)
        guard file.count <= capacity / 8 else { return await removeResponse(for: key) }
        guard writeAtomically(file, to: directory + "/" + name) == nil else { return }
        let victims = state.withLock { state -> [String] in
            if let old = state.files[name] { state.bytes -= old.size }
            state.clock += 1
            state.files[name] = (file.count, state.clock)
            state.bytes += file.count
            var victims: [String] = []
            while state.bytes > capacity, let victim = state.files.min(by: { $0.value.used < $1.value.used }) {
                state.files[victim.key] = nil
                state.bytes -= victim.value.size
                victims.append(victim.key)
            }
            return victims
        }
        for victim in victims { Paths.remove(directory + "/" + victim) }
    }

    public func removeResponse(for key: String) async {
        let name = Self.fileName(for: key)
        state.withLock { state in
            if let old = state.files.removeValue(forKey: name) { state.bytes -= old.size }
        }
        Paths.remove(directory + "/" + name)
    }

    public func removeAll() async {
        let names = state.withLock { state in
            defer { state = State() }
            return Array(state.files.keys)
        }
        for name in names { Paths.remove(directory + "/" + name) }
    }

    /// The file of `key`: its 64-bit FNV-1a hash in hex (the key inside tells collisions apart).
    static func fileName(for key: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + suffix
    }
}
