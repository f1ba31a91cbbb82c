/// Accepts a 2xx response only with one of the listed media types (`application/json`, `text/*`, a
/// `+json` suffix); others fail with `ResponseValidationError.unacceptableContentType(_:acceptable:)`.
/// Sets: `validation` = 2xx and those content types.
public protocol ContentTypeValidationType: RequestType {
    /// The acceptable media types. No default.
    var acceptableContentTypes: [String] { get }
}

extension ContentTypeValidationType {
    public var validation: ResponseValidation { ResponseValidation(contentTypes: acceptableContentTypes) }
}
