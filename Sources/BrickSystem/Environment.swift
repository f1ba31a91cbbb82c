#if canImport(Glibc)
import Glibc
#else
#error("BrickSystem reaches the operating system through Glibc: another system needs its own branch here")
#endif

/// The process's environment variable `name`, if set.
package func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

/// This process as another process of a fleet may name it: the machine's host name and the process id,
/// as `host:pid`.
package func processIdentity() -> String {
    var name = [CChar](repeating: 0, count: 256)
    let host = gethostname(&name, name.count - 1) == 0 ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unknown"
    return "\(host):\(getpid())"
}
