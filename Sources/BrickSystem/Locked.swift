public import CMutex

/// A value behind a lock: how this package shares mutable state between threads (objects made for every
/// request keep theirs behind a mutex of a fixed row instead: ``LockStripes``).
///
/// It plays the part of `Synchronization.Mutex`, with the package's own futex mutex underneath (`CMutex`: one
/// word, taken and released by one atomic instruction each when nobody waits). ThreadSanitizer sees that
/// mutex's atomic operations, compiled with the sanitizer as the package is, but not those of `Mutex`,
/// which live in the standard library: with `Mutex` every access under the lock was reported as a race, and
/// the real ones could not be told apart.
///
/// A copy of a `Locked` is the same lock around the same value: what it holds is a reference to one
/// ``LockedBuffer``, the object that keeps the mutex and the value side by side in one allocation. It is
/// `@unchecked Sendable` because of that mutex: the value is read and written only inside ``withLock(_:)``,
/// between `brick_mutex_lock` and `brick_mutex_unlock`.
public struct Locked<Value: ~Copyable>: @unchecked Sendable {
    @usableFromInline let buffer: LockedBuffer<Value>

    /// A lock around `initialValue`. Inlinable, so that the buffer's type is known where a lock is made (in
    /// generic code, the runtime looked the buffer's metadata up in a table for every lock made).
    @inlinable
    package init(_ initialValue: consuming sending Value) {
        buffer = unsafeDowncast(LockedBuffer<Value>.create(minimumCapacity: 1) { _ in 0 }, to: LockedBuffer<Value>.self)
        buffer.value.initialize(to: initialValue)
    }

    /// Runs `body` with the value, the lock held; not reentrant. Inlinable, so that each module's use is
    /// specialized for its value (a generic call into another module cost as much as the lock itself). That
    /// is also why the type is `public` (its members stay `package`): with Swift 6.3 the optimizer specializes
    /// an inlinable method of a `package` generic type in no other module.
    @inlinable @inline(__always)
    package func withLock<Result: ~Copyable, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        buffer.lock()
        defer { buffer.unlock() }
        return try body(&buffer.value.pointee)
    }
}

/// The object behind a ``Locked``: its header is the mutex's word (0: free) and its one element the value,
/// so that both live in the object's own allocation, where they never move. Reached only through its pointer,
/// the value is outside the runtime's exclusivity checks, which the lock makes redundant.
public final class LockedBuffer<Value: ~Copyable>: ManagedBuffer<UInt32, Value> {
    deinit {
        _ = withUnsafeMutablePointerToElements { $0.move() }
    }

    /// The value's place in this object, which lives as long as the object does.
    /// Inlinable, as are `lock()` and `unlock()`: each was a call of its own around the one it makes.
    @inlinable var value: UnsafeMutablePointer<Value> { withUnsafeMutablePointerToElements { $0 } }

    @inlinable func lock() { withUnsafeMutablePointerToHeader { brick_mutex_lock($0) } }
    @inlinable func unlock() { withUnsafeMutablePointerToHeader { brick_mutex_unlock($0) } }
}
