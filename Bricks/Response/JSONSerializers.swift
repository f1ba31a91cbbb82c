import FoundationEssentials

/// The JSON serializers shared by the response bricks and the session's conveniences.
enum JSONSerializers {
    /// The body parsed as ``JSON``; an empty body or invalid JSON throws ``ResponseSerializationError``.
    static let json = ResponseSerializer<JSON> { response in
        guard !response.body.isEmpty else { throw ResponseSerializationError.emptyBody }
        do throws(JSONParseError) { return try JSON.parse(response.body) } catch {
            throw ResponseSerializationError.invalidJSON(error.description)
        }
    }

    /// The body decoded as `type` with `decoder`; an empty body, invalid JSON or a mismatch throws
    /// ``ResponseSerializationError``.
    static func decodable<Value: Decodable & Sendable>(_ type: Value.Type, decoder: JSONDecoder) -> ResponseSerializer<Value> {
        ResponseSerializer { response in
            guard !response.body.isEmpty else { throw ResponseSerializationError.emptyBody }
            do { return try decoder.decode(Value.self, from: response.body) } catch let error as DecodingError {
                if case .dataCorrupted = error { throw ResponseSerializationError.invalidJSON(String(describing: error)) }
                throw ResponseSerializationError.undecodable(DecodingFailure(error, body: response.body))
            }
        }
    }
}
