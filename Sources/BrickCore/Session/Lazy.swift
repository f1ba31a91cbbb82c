import BrickSystem
import BrickTransport

/// A value made on first use, once, by whichever thread asks first: what lets a session exist (and a
/// configuration be built) without starting the threads its transport and reachability run on.
final class Lazy<Value: Sendable>: Sendable {
    private enum State {
        case pending(@Sendable () -> Value)
        case made(Value)
    }

    private let state: Locked<State>

    init(_ make: @escaping @Sendable () -> Value) { state = Locked(.pending(make)) }

    /// The value, made now if it was not yet.
    var value: Value {
        state.withLock { state in
            switch state {
            case .made(let value): return value
            case .pending(let make):
                let value = make()
                state = .made(value)
                return value
            }
        }
    }

    /// The value if it was made, without making it.
    var ifMade: Value? {
        state.withLock { state in if case .made(let value) = state { value } else { nil } }
    }
}
