#if canImport(Glibc)
import Glibc
#else
#error("BrickSystem reaches the operating system through Glibc: another system needs its own branch here")
#endif

/// A system call's failure: its `errno`.
package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    package let code: Int32

    /// The error `code`.
    package init(code: Int32) { self.code = code }

    /// The calling thread's `errno` now: read it right after the call that failed.
    package static var last: SystemError { SystemError(code: errno) }

    /// Another holder has the lock (`EWOULDBLOCK`).
    package static let wouldBlock = SystemError(code: EWOULDBLOCK)
    /// Not the kind of file the call needs, or an argument it does not take (`EINVAL`).
    package static let invalid = SystemError(code: EINVAL)
    /// No network reaches the address (`ENETUNREACH`).
    package static let networkUnreachable = SystemError(code: ENETUNREACH)
    /// No route reaches the host (`EHOSTUNREACH`).
    package static let hostUnreachable = SystemError(code: EHOSTUNREACH)
    /// Not permitted, for example by a route that prohibits it (`EACCES`).
    package static let accessDenied = SystemError(code: EACCES)
    /// No such file or directory (`ENOENT`).
    package static let noSuchFile = SystemError(code: ENOENT)
    /// Larger than allowed (`EFBIG`): ``FileDescriptor/readWhole(_:limit:)``'s refusal of a file over its limit.
    package static let tooLarge = SystemError(code: EFBIG)

    /// Whether the call was interrupted by a signal before it did anything (`EINTR`): try it again.
    package var isInterrupted: Bool { code == EINTR }

    /// The system's words for the error, for example "No such file or directory".
    package var description: String { String(cString: strerror(code)) }
}
