/// Accepts only the status codes the request lists; any other
/// fails with `ResponseValidationError.unacceptableStatusCode(_:)`, the response kept.
/// Sets: `validation` = those codes, any content type.
public protocol StatusCodeValidationType: RequestType {
    /// The acceptable status codes. No default.
    var acceptableStatusCodes: [ClosedRange<Int>] { get }
}

extension StatusCodeValidationType {
    public var validation: ResponseValidation { ResponseValidation(statusCodes: acceptableStatusCodes) }
}
