/// Accepts every response, 4xx and 5xx included, so that the response brick serializes error bodies too.
/// Sets: `validation` = `ResponseValidation.none`.
public protocol NoValidationType: RequestType {}

extension NoValidationType {
    public var validation: ResponseValidation { .none }
}
