/// For responses without a body worth reading (204 No Content, HEAD, a 201 with nothing to say): the body,
/// if any, is ignored.
/// Sets: `SerializedObject` = `Void`; `responseSerializer` = nothing to decode.
public protocol EmptyResponseType: ResponseType where SerializedObject == Void {}

extension EmptyResponseType {
    /// Nothing: the body is ignored.
    public var responseSerializer: ResponseSerializer<Void> { ResponseSerializer { _ in () } }
}
