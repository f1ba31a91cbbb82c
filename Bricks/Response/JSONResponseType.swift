import FoundationEssentials

/// Serializes the body as a typed ``JSON`` value.
/// Sets: `SerializedObject` = `JSON`; `responseSerializer` = parse the body as JSON (an empty body or
/// invalid JSON throws ``ResponseSerializationError``).
public protocol JSONResponseType: ResponseType where SerializedObject == JSON {}

extension JSONResponseType {
    public var responseSerializer: ResponseSerializer<JSON> {
        ResponseSerializer { response in
            guard !response.body.isEmpty else { throw ResponseSerializationError.emptyBody }
            do { return try JSONDecoder().decode(JSON.self, from: response.body) } catch {
                throw ResponseSerializationError.invalidJSON(String(describing: error))
            }
        }
    }
}
