#if canImport(Glibc)
public import Glibc
#else
#error("BrickSystem reaches the operating system through Glibc: another system needs its own branch here")
#endif

/// A fixed row of mutexes shared by many objects: each object's state is guarded by the mutex its address
/// picks. For objects made by the thousand whose shared state is held briefly (a transfer, one per
/// request), where a ``Locked`` of their own would cost an allocation (and a mutex made and destroyed) each
/// time.
///
/// An object keeps the ``StripeLock`` its address picks (``lock(for:)``). Two objects may pick the same mutex,
/// so code run under one must not take another of the same row (the mutexes are not reentrant): what it
/// guards is its own object's state, nothing more. A copy is the same row. `@unchecked Sendable` because of
/// the mutexes, which are reached only through ``StripeLock/withLock(_:)``.
public struct LockStripes: @unchecked Sendable {
    @usableFromInline let buffer: LockStripesBuffer

    /// 64 mutexes: for the briefly held state of objects spread over a few threads, collisions are rare
    /// and short.
    package init() {
        buffer = unsafeDowncast(LockStripesBuffer.create(minimumCapacity: LockStripesBuffer.count) { _ in () }, to: LockStripesBuffer.self)
        buffer.withUnsafeMutablePointerToElements { mutexes in
            for index in 0..<LockStripesBuffer.count {
                (mutexes + index).initialize(to: pthread_mutex_t())
                _ = pthread_mutex_init(mutexes + index, nil)
            }
        }
    }

    /// The mutex `object`'s address picks. It lives as long as this row does: whoever keeps it keeps the row
    /// (or what owns the row) alive as well.
    @inlinable
    package func lock(for object: AnyObject) -> StripeLock {
        StripeLock(mutex: buffer.mutex(for: object))
    }
}

/// One mutex of a ``LockStripes`` row, for one object's state; valid while the row lives. Public (its members
/// stay `package`) for the reason ``Locked`` is: so that ``withLock(_:)`` is inlined where it is used.
public struct StripeLock: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @usableFromInline init(mutex: UnsafeMutablePointer<pthread_mutex_t>) { self.mutex = mutex }

    /// Runs `body` with the mutex held; not reentrant, and `body` takes no other mutex of the same row (another
    /// object's may be this one).
    @inlinable @inline(__always)
    package func withLock<Result: ~Copyable, E: Error>(_ body: () throws(E) -> Result) throws(E) -> Result {
        _ = pthread_mutex_lock(mutex)
        defer { _ = pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// The mutexes of a ``LockStripes``, side by side in one allocation, where they never move.
public final class LockStripesBuffer: ManagedBuffer<Void, pthread_mutex_t> {
    @usableFromInline static var count: Int { 64 }

    deinit {
        withUnsafeMutablePointerToElements { mutexes in
            for index in 0..<Self.count { _ = pthread_mutex_destroy(mutexes + index) }
            mutexes.deinitialize(count: Self.count)
        }
    }

    /// The mutex for `object`: its address (16-byte aligned, objects of one kind a fixed size apart) mixed
    /// by a multiplication, its top six bits the index.
    @inlinable
    final func mutex(for object: AnyObject) -> UnsafeMutablePointer<pthread_mutex_t> {
        let address = UInt(bitPattern: ObjectIdentifier(object)) >> 4
        let index = Int((address &* 0x9E37_79B9_7F4A_7C15) >> 58)
        return withUnsafeMutablePointerToElements { $0 } + index
    }
}
