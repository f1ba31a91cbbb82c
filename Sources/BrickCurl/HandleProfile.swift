import BrickTransport

/// Everything a transfer's standing options depend on: the options of its request, how its response is
/// read, whether it is HTTPS, whether it must have a connection of its own, and its method and kind of body.
///
/// Two transfers with equal profiles set every standing option to the same value, so a handle that served
/// one can serve the other with only the options that belong to one request set again (its URL, its header
/// list, its body, the pointers back to it). A handle is never handed to a transfer of another profile: it
/// then carries nothing over that the transfer did not ask for.
struct HandleProfile: Equatable {
    let options: TransportOptions
    let mode: CurlTransfer.Mode
    let https: Bool
    let freshConnection: Bool
    let method: HTTPMethod
    /// Whether a body is sent, always from memory here: a handle that read a body through the read
    /// callback is not kept.
    let sendsBody: Bool

    init(_ transfer: CurlTransfer) {
        let request = transfer.request
        options = request.options
        mode = transfer.mode
        https = EasyTransfer.isHTTPS(request.url)
        freshConnection = request.needsFreshConnection
        method = request.method
        sendsBody = request.body != nil
    }
}
