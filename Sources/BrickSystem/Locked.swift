#if canImport(Glibc)
import Glibc
#else
#error("BrickSystem reaches the operating system through Glibc: another system needs its own branch here")
#endif

/// A value behind a lock: the one way this package shares mutable state between threads.
///
/// It plays the part of `Synchronization.Mutex`, with a `pthread_mutex_t` underneath: ThreadSanitizer
/// understands POSIX mutexes but not the raw futex calls `Mutex` makes on Linux, so with `Mutex` every
/// access under the lock was reported as a race, and the real ones could not be told apart. It is
/// `@unchecked Sendable` because of that lock: ``value`` is read and written only inside
/// ``withLock(_:)``, between `pthread_mutex_lock` and `pthread_mutex_unlock`.
package final class Locked<Value: ~Copyable>: @unchecked Sendable {
    /// The `pthread_mutex_t`, on the heap so that it never moves.
    @usableFromInline let mutex: UnsafeMutableRawPointer
    /// Only touched under the lock, which is what keeps accesses exclusive: the runtime's own exclusivity
    /// check (two calls into the Swift runtime per access, and ~15 accesses per request) would only repeat it.
    @exclusivity(unchecked) @usableFromInline var value: Value

    /// A lock around `initialValue`.
    package init(_ initialValue: consuming sending Value) {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.mutex = UnsafeMutableRawPointer(mutex)
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(mutex.assumingMemoryBound(to: pthread_mutex_t.self))
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held; not reentrant. Inlinable, so that each module's use is
    /// specialized for its value (a generic call into another module cost as much as the lock itself).
    @inlinable
    package func withLock<Result: ~Copyable, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        lock()
        defer { unlock() }
        return try body(&value)
    }

    @usableFromInline func lock() { pthread_mutex_lock(mutex.assumingMemoryBound(to: pthread_mutex_t.self)) }
    @usableFromInline func unlock() { pthread_mutex_unlock(mutex.assumingMemoryBound(to: pthread_mutex_t.self)) }
}
