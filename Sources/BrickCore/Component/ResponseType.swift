/// What a request's response becomes: a serialized value and the serializer that makes it.
///
/// Response bricks such as `JSONResponseType` supply both.
public protocol ResponseType {
    /// The value a successful response is turned into.
    associatedtype SerializedObject: Sendable
    /// Turns the raw response into ``SerializedObject``. No default: conform to a response brick.
    var responseSerializer: ResponseSerializer<SerializedObject> { get }
}
