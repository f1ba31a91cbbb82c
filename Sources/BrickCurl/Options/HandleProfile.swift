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
    let body: BodyKind

    /// How the body is handed to libcurl, which decides the options that carry it.
    enum BodyKind: Equatable {
        case none
        /// Copied into libcurl with the request (`CURLOPT_COPYPOSTFIELDS`).
        case inMemory
        /// Read through the read callback (files, streams, several parts). Such a handle is never kept: a
        /// kept handle still holds its last request's copied body, which libcurl would send instead of
        /// reading the callback.
        case readThroughCallback
    }

    /// The profile of `transfer`, started in `mode`. Reads the request's fields where the transfer keeps it,
    /// rather than taking a copy of the whole request.
    init(of transfer: CurlTransfer, mode: CurlTransfer.Mode) {
        options = transfer.request.options
        self.mode = mode
        https = CurlTransfer.isHTTPS(transfer.request.url)
        freshConnection = transfer.request.needsFreshConnection
        method = transfer.request.method
        body = switch transfer.request.body {
        case nil: .none
        case let body? where body.data != nil: .inMemory
        case _?: .readThroughCallback
        }
    }
}
