#if canImport(Glibc)
import Glibc
#else
#error("BrickSystem reaches the operating system through Glibc: another system needs its own branch here")
#endif

/// A Linux eventfd: a counter one thread raises to wake another that polls its descriptor. Non-blocking, so
/// that neither a signal nor a drain can ever block, and close-on-exec from its creation.
package final class EventCounter: Sendable {
    /// The descriptor to poll.
    package let descriptor: Int32

    /// `eventfd(2)`, which Swift's Glibc module does not export: looked up at run time.
    private static let make: (@convention(c) (UInt32, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "eventfd") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UInt32, Int32) -> Int32).self)
    }()

    /// - Returns: `nil` if the system refuses an eventfd (out of file descriptors).
    package init?() {
        // EFD_CLOEXEC and EFD_NONBLOCK are O_CLOEXEC and O_NONBLOCK on Linux.
        guard let descriptor = Self.make?(0, O_CLOEXEC | O_NONBLOCK), descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Raises the counter, which makes the descriptor readable.
    package func signal() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)  // EAGAIN only when the counter is full: the poller is woken anyway
    }

    /// Takes the whole count (one read), so that the descriptor is no longer readable.
    package func reset() {
        var count: UInt64 = 0
        _ = read(descriptor, &count, 8)
    }
}
