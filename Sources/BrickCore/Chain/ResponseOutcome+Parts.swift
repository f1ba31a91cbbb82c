extension Result where Failure == BrickError {
    /// The error, when it is a failure.
    var error: BrickError? { if case .failure(let error) = self { error } else { nil } }
}

extension Result where Success == TransportResponse, Failure == BrickError {
    /// The response: the one that arrived, or the one a failure keeps (a status not accepted, a body that did
    /// not serialize).
    var response: TransportResponse? {
        switch self {
        case .success(let response): response
        case .failure(let error): error.response
        }
    }

    /// The response's head, when there is one.
    var head: ResponseHead? { response?.head }

    /// The status of the response, the one that arrived or the one a failure keeps: read in place, the head
    /// not copied.
    var status: Int? { response?.status }

    /// Whether a response is there (arrived, or kept by a failure): nothing copied.
    var hasResponse: Bool { response != nil }

    /// The status of the response that arrived (not of one a failure keeps): read in place, nothing copied.
    var arrivedStatus: Int? {
        switch self {
        case .success(let response): response.status
        case .failure: nil
        }
    }
}
