import Glibc
import TestServers

/// Takes this network namespace's loopback down and up with `ip`, the way the notes' recipe does: down and
/// flushed, 127.0.0.1 is unreachable at once (ENETUNREACH) instead of timing out.
enum Network {
    static let ip = Paths.executable("ip") ?? "/usr/sbin/ip"

    static func run(_ arguments: String...) throws(TestServerError) {
        try ChildProcess.run([ip] + arguments, logPath: "/dev/stderr")
    }

    static func goOffline() throws(TestServerError) {
        try run("link", "set", "lo", "down")
        try run("addr", "flush", "dev", "lo")
    }

    /// Brings the loopback back; returns the monotonic time (ns) just before the link comes up.
    static func goOnline() throws(TestServerError) -> UInt64 {
        try run("addr", "add", "127.0.0.1/8", "dev", "lo")
        let start = FaultServer.monotonicNanoseconds()
        try run("link", "set", "lo", "up")
        return start
    }

    /// Whether this process is in a private network namespace: only `lo` exists (sysfs would still show the
    /// host's interfaces, so ask the kernel). The probe refuses to touch a namespace that is not private.
    static func isPrivateNamespace() -> Bool {
        guard let list = if_nameindex() else { return false }
        defer { if_freenameindex(list) }
        var names: [String] = []
        var cursor = list
        while cursor.pointee.if_index != 0, let name = cursor.pointee.if_name {
            names.append(String(cString: name))
            cursor += 1
        }
        return names == ["lo"]
    }
}
