/// One redirect a call followed: the request sent and the head that sent it elsewhere
/// (``TransportResponse/redirects``).
public struct RedirectHop: Sendable {
    /// The request as it was sent on this hop.
    public let request: TransportRequest
    /// The `3xx` head that answered it.
    public let head: ResponseHead

    /// A hop: `request`, answered by `head`.
    public init(request: TransportRequest, head: ResponseHead) {
        self.request = request
        self.head = head
    }
}
