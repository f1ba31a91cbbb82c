public import CMutex

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
        let words = LockStripesBuffer.count * LockStripesBuffer.spacing
        buffer = unsafeDowncast(LockStripesBuffer.create(minimumCapacity: words) { _ in () }, to: LockStripesBuffer.self)
        buffer.withUnsafeMutablePointerToElements { $0.initialize(repeating: 0, count: words) }
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
    @usableFromInline let mutex: UnsafeMutablePointer<UInt32>

    @usableFromInline init(mutex: UnsafeMutablePointer<UInt32>) { self.mutex = mutex }

    /// Runs `body` with the mutex held; not reentrant, and `body` takes no other mutex of the same row (another
    /// object's may be this one).
    @inlinable @inline(__always)
    package func withLock<Result: ~Copyable, E: Error>(_ body: () throws(E) -> Result) throws(E) -> Result {
        brick_mutex_lock(mutex)
        defer { brick_mutex_unlock(mutex) }
        return try body()
    }
}

/// The mutexes of a ``LockStripes`` (a futex word each, `CMutex`), in one allocation, where they never move:
/// each on a cache line of its own, so that threads taking two of them do not contend for one line.
public final class LockStripesBuffer: ManagedBuffer<Void, UInt32> {
    @usableFromInline static var count: Int { 64 }
    /// Words from one mutex to the next: 64 bytes.
    @usableFromInline static var spacing: Int { 16 }

    /// The mutex for `object`: its address (16-byte aligned, objects of one kind a fixed size apart) mixed
    /// by a multiplication, its top six bits the index.
    @inlinable
    final func mutex(for object: AnyObject) -> UnsafeMutablePointer<UInt32> {
        let address = UInt(bitPattern: ObjectIdentifier(object)) >> 4
        let index = Int((address &* 0x9E37_79B9_7F4A_7C15) >> 58)
        return withUnsafeMutablePointerToElements { $0 } + index &* Self.spacing
    }
}
