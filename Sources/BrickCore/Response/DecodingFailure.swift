/// Why a body that is JSON did not decode into the requested type: the decoder's own error, kept whole, with
/// where in the document it stopped and the start of the body, so that a user sees which field failed.
/// Found in ``ResponseSerializationError/undecodable(_:)``.
public struct DecodingFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The decoder's error.
    public let error: DecodingError
    /// Where in the document: `address.zip`, `[3].id`; empty at the top.
    public let codingPath: String
    /// The first bytes of the body, as text (at most ``excerptLimit`` bytes; invalid UTF-8 replaced). Note
    /// that it is part of the error's description: a body with secrets puts them in your logs.
    public let bodyExcerpt: String

    /// The most bytes of the body an excerpt keeps.
    public static let excerptLimit = 200

    /// The failure of decoding `body`.
    public init(_ error: DecodingError, body: some Collection<UInt8>) {
        self.error = error
        let (context, missingKey): (DecodingError.Context?, (any CodingKey)?) = switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): (context, nil)
        case .keyNotFound(let key, let context): (context, key)
        @unknown default: (nil, nil)
        }
        let keys = (context?.codingPath ?? []) + (missingKey.map { [$0] } ?? [])
        codingPath = keys.enumerated().map { index, key in
            if let position = key.intValue { "[\(position)]" } else { index == 0 ? key.stringValue : "." + key.stringValue }
        }.joined()
        bodyExcerpt = String(decoding: body.prefix(Self.excerptLimit), as: UTF8.self)
    }

    /// What the decoder said, without the coding path (which ``codingPath`` has).
    public var reason: String {
        switch error {
        case .typeMismatch(let type, let context): "expected \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context): "no value where \(type) was expected: \(context.debugDescription)"
        case .keyNotFound(let key, _): "no member \"\(key.stringValue)\""
        case .dataCorrupted(let context): context.debugDescription
        @unknown default: "\(error)"
        }
    }

    public var description: String {
        "at \(codingPath.isEmpty ? "the top" : codingPath): \(reason); the body starts: \(bodyExcerpt.debugDescription)"
    }

    public static func == (lhs: DecodingFailure, rhs: DecodingFailure) -> Bool {
        lhs.codingPath == rhs.codingPath && lhs.reason == rhs.reason && lhs.bodyExcerpt == rhs.bodyExcerpt
    }
}
