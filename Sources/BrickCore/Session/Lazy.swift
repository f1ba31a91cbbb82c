import BrickSystem
import BrickTransport
import Synchronization

/// A value made on first use, once, by whichever thread asks first: what lets a session exist (and a
/// configuration be built) without starting the threads its transport and reachability run on.
///
/// Once made, the value is read without the lock: it is published once, through an atomic reference
/// (stored with release ordering after it was made under the lock, loaded with acquire ordering), and never
/// changes after. Every request reads its session's transport and route watch this way.
final class Lazy<Value: Sendable>: Sendable {
    /// The value, boxed so that one atomic reference publishes it.
    private final class Made: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// How to make the value, taken (under the lock) by whoever makes it.
    private let maker: Locked<(@Sendable () -> Value)?>
    /// The value once made (retained once, released in `deinit`).
    private let made = Atomic<Unmanaged<Made>?>(nil)

    init(_ make: @escaping @Sendable () -> Value) { maker = Locked(make) }

    deinit { made.load(ordering: .acquiring)?.release() }

    /// The value, made now if it was not yet.
    var value: Value {
        if let made = made.load(ordering: .acquiring) { return made.takeUnretainedValue().value }
        return maker.withLock { make in
            // Another thread may have made it while this one waited for the lock.
            if let made = made.load(ordering: .acquiring) { return made.takeUnretainedValue().value }
            let value = make!()
            make = nil
            made.store(Unmanaged.passRetained(Made(value)), ordering: .releasing)
            return value
        }
    }

    /// The value if it was made, without making it.
    var ifMade: Value? { made.load(ordering: .acquiring)?.takeUnretainedValue().value }
}
