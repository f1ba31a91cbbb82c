/// Why a response body could not become the requested value; thrown by the stock serializers and found in
/// ``BrickError/serialization(_:response:)``.
public enum ResponseSerializationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body is empty but the serializer needs one.
    case emptyBody
    /// The body is not valid JSON; the parser's explanation.
    case invalidJSON(String)
    /// The body is JSON but does not decode into the requested type: the decoder's error, the path of the
    /// member that failed, and the start of the body.
    case undecodable(DecodingFailure)
    /// The body is not valid text in its charset.
    case undecodableText(charset: String)

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .emptyBody: "the body is empty"
        case .invalidJSON(let reason): "the body is not valid JSON: \(reason)"
        case .undecodable(let failure): "the JSON does not decode \(failure)"
        case .undecodableText(let charset): "the body is not valid \(charset) text"
        }
    }
}
