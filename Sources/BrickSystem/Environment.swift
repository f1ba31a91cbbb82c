#if canImport(Glibc)
import Glibc
#else
#error("BrickSystem reaches the operating system through Glibc: another system needs its own branch here")
#endif

/// The process's environment variable `name`, if set.
package func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
