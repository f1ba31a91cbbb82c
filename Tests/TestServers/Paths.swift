import Glibc

/// Where things are: the repository, its venv, and scratch directories for servers.
public enum Paths {
    /// The repository's root (three levels above this file).
    public static let repository: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The project-local venv made by the setup (`.venv`), or `BRICK_VENV` when set.
    public static var venv: String {
        if let custom = getenv("BRICK_VENV") { return String(cString: custom) }
        return repository + "/.venv"
    }

    /// A new private directory under the system's temporary directory.
    public static func scratchDirectory(_ name: String) throws(TestServerError) -> String {
        var template = Array("/tmp/brick-\(name)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard let made else {
            throw TestServerError("mkdtemp failed")
        }
        let path = String(cString: made)
        chmod(path, 0o755)
        return path
    }

    /// Removes a scratch directory and everything in it (best effort; for clean-up at the end).
    public static func removeTree(_ path: String) {
        guard path.hasPrefix("/tmp/brick-") else { return }
        _ = try? ChildProcess(["/bin/rm", "-rf", path], logPath: "/dev/null").wait()
    }

    /// Writes `text` to `path`.
    public static func write(_ text: String, to path: String) throws(TestServerError) {
        guard let file = fopen(path, "w") else { throw TestServerError("cannot write \(path)") }
        defer { fclose(file) }
        guard fputs(text, file) >= 0 else { throw TestServerError("cannot write \(path)") }
    }

    /// Reads a whole text file.
    public static func read(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The process's file mode creation mask, as the kernel reports it in `/proc/self/status` (setting the
    /// umask to read it would change it for every test running beside); `nil` when it cannot be read.
    public static func umask() -> UInt32? {
        let status = read("/proc/self/status")
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }) else { return nil }
        return UInt32(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8)
    }

    /// A product built beside the running test binary (an executable target of this package).
    public static func builtProduct(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let me = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = me.lastIndex(of: "/") else { return nil }
        let path = me[..<slash] + "/" + name
        return access(path, X_OK) == 0 ? path : nil
    }

    /// Finds an executable in the usual system directories.
    public static func executable(_ name: String) -> String? {
        ["/usr/sbin/", "/usr/bin/", "/sbin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first { access($0, X_OK) == 0 }
    }
}

/// The process's resident memory now, from /proc/self/statm.
public func residentMemoryBytes() -> Int {
    let fields = Paths.read("/proc/self/statm").split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
