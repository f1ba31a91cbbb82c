/// Why a response body could not become the requested value; thrown by the stock serializers and found in
/// ``BrickError/serialization(_:response:)``.
public enum ResponseSerializationError: Error, Sendable, Equatable {
    /// The body is empty but the serializer needs one.
    case emptyBody
    /// The body is not valid JSON; the parser's explanation.
    case invalidJSON(String)
    /// The body is JSON but does not decode into the requested type: the decoder's error, the path of the
    /// member that failed, and the start of the body.
    case undecodable(DecodingFailure)
    /// The body is not valid text in its charset.
    case undecodableText(charset: String)
}
