#if canImport(Glibc)
import Glibc
#else
#error("BrickSystem reaches the operating system through Glibc: another system needs its own branch here")
#endif

/// Which of two descriptors became readable in ``waitUntilReadable(_:_:timeoutMilliseconds:)``.
package struct Readiness: Sendable {
    /// The first descriptor has something to read.
    package let first: Bool
    /// The second descriptor has something to read.
    package let second: Bool
    /// The time ran out with neither ready (not so when a signal cut the wait short).
    package let timedOut: Bool
}

/// Waits until `first` or `second` has something to read, or `timeoutMilliseconds` pass (-1: no limit).
/// A signal that interrupts the wait returns with nothing ready. `nil` when the wait itself fails.
package func waitUntilReadable(_ first: Int32, _ second: Int32, timeoutMilliseconds: Int32) -> Readiness? {
    var descriptors = [pollfd(fd: first, events: Int16(POLLIN), revents: 0), pollfd(fd: second, events: Int16(POLLIN), revents: 0)]
    let ready = poll(&descriptors, 2, timeoutMilliseconds)
    if ready < 0 { return errno == EINTR ? Readiness(first: false, second: false, timedOut: false) : nil }
    return Readiness(first: descriptors[0].revents != 0, second: descriptors[1].revents != 0, timedOut: ready == 0)
}
