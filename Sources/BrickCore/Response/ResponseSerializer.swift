/// Turns a raw response (head, body, metrics) into a value, or throws.
///
/// Whatever it throws reaches the caller as ``BrickError/serialization(_:response:)``, with the raw
/// response kept.
public struct ResponseSerializer<Value: Sendable>: Sendable {
    private let body: @Sendable (TransportResponse) throws -> Value

    /// Creates a serializer from a function.
    public init(_ serialize: @escaping @Sendable (TransportResponse) throws -> Value) {
        body = serialize
    }

    /// Serializes `response`.
    /// - Throws: ``BrickError/serialization(_:response:)`` wrapping what the function threw.
    public func serialize(_ response: TransportResponse) throws(BrickError) -> Value {
        do { return try body(response) } catch let error as BrickError { throw error } catch {
            throw .serialization(error, response: response)
        }
    }
}
