import BrickSystem

/// Request types' names as `String(describing:)` writes them (`GetUser`), made once per type: the runtime's
/// reflection spends thousands of instructions on one, and observers and loggers ask on every call.
enum TypeNames {
    /// The names made so far; a program with more request types than this makes the others each time.
    private static let capacity = 4096
    private static let known = Locked<[ObjectIdentifier: String]>([:])

    /// The name of `type`.
    static func name(of type: any Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let name = known.withLock({ $0[key] }) { return name }
        let name = String(describing: type)
        known.withLock { names in if names.count < capacity { names[key] = name } }
        return name
    }
}
