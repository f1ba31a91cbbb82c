public import FoundationEssentials

/// Hands over the body as it arrived (decompressed).
/// Sets: `SerializedObject` = `Data`; `responseSerializer` = the body.
public protocol DataResponseType: ResponseType where SerializedObject == Data {}

extension DataResponseType {
    /// The body, as it arrived.
    public var responseSerializer: ResponseSerializer<Data> { ResponseSerializer { $0.body } }
}
