import FoundationEssentials

/// Decodes the body as UTF-8 text.
/// Sets: `SerializedObject` = `String`; `responseSerializer` = the body as UTF-8 (invalid UTF-8 throws
/// ``ResponseSerializationError/undecodableText(charset:)``).
public protocol StringResponseType: ResponseType where SerializedObject == String {}

extension StringResponseType {
    public var responseSerializer: ResponseSerializer<String> {
        ResponseSerializer { response in
            guard let text = String(validating: response.body, as: UTF8.self) else {
                throw ResponseSerializationError.undecodableText(charset: "utf-8")
            }
            return text
        }
    }
}
