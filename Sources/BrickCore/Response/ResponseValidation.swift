/// Which responses count as successful: acceptable status codes and content types. A response outside
/// them fails with ``BrickError/validation(_:response:)`` before serialization, with the response kept.
public struct ResponseValidation: Sendable, Equatable {
    /// The acceptable status codes, or `nil` for any.
    public var statusCodes: [ClosedRange<Int>]?
    /// The acceptable media types (`application/json`, `text/*`, `*/*`, or a `+json` suffix), or `nil`
    /// for any. Parameters such as `charset` are ignored; a response without `Content-Type` fails.
    public var contentTypes: [String]?

    /// Creates a validation.
    public init(statusCodes: [ClosedRange<Int>]? = [200...299], contentTypes: [String]? = nil) {
        self.statusCodes = statusCodes
        self.contentTypes = contentTypes
    }

    /// Any 2xx status, any content type: the default of every request.
    public static let successful = ResponseValidation()
    /// Every response is accepted, 4xx and 5xx included: serializers see them all.
    public static let none = ResponseValidation(statusCodes: nil)

    /// Checks `response`.
    /// - Throws: ``ResponseValidationError``.
    public func validate(_ response: TransportResponse) throws(ResponseValidationError) {
        let status = response.status
        if let statusCodes, !statusCodes.contains(where: { $0.contains(status) }) {
            throw .unacceptableStatusCode(status)
        }
        if let contentTypes {
            let received = response.head.headers["Content-Type"]
            guard let received, contentTypes.contains(where: { Self.mediaType(received, matches: $0) }) else {
                throw .unacceptableContentType(received, acceptable: contentTypes)
            }
        }
    }

    /// Whether the media type of the header value `received` matches `pattern`.
    static func mediaType(_ received: String, matches pattern: String) -> Bool {
        let type = ContentTypeValue.essence(received)
        let wanted = ContentTypeValue.essence(pattern)
        if wanted == "*/*" || wanted == type { return true }
        if wanted.hasPrefix("+") { return type.hasSuffix(wanted) }
        if wanted.hasSuffix("/*") { return type.hasPrefix(wanted.dropLast()) }
        return false
    }
}

/// Why a response was not accepted by its request's ``ResponseValidation``.
public enum ResponseValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The status code is not among the acceptable ones.
    case unacceptableStatusCode(Int)
    /// The `Content-Type` (or its absence) is not among the acceptable ones.
    case unacceptableContentType(String?, acceptable: [String])

    public var description: String {
        switch self {
        case .unacceptableStatusCode(let status):
            "status \(status) is not one the request accepts (its validation brick decides: StatusCodeValidationType lists "
                + "the statuses, NoValidationType accepts every one)"
        case .unacceptableContentType(let received, let acceptable):
            "content type \(received ?? "(none)") is not one the request accepts, \(acceptable.joined(separator: " or ")) "
                + "(ContentTypeValidationType decides)"
        }
    }
}
