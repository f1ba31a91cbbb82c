#if canImport(Glibc)
import Glibc
#else
#error("BrickSystem reaches the operating system through Glibc: another system needs its own branch here")
#endif

/// Opens a socket close-on-exec, atomically (`SOCK_CLOEXEC`): the descriptor, or -1.
package func openSocketClosedOnExec(family: Int32, type: Int32, protocol: Int32) -> Int32 {
    socket(family, type | Int32(SOCK_CLOEXEC.rawValue), `protocol`)
}
