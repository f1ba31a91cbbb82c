import BrickTransport
import CCurl
import CCurlShim

/// A request's URL as libcurl parses it, made once and handed to every transfer of a kept handle that goes
/// to the same URL (`CURLOPT_CURLU`). Given the URL as a string (`CURLOPT_URL`), libcurl parses it anew at the
/// start of every transfer and writes it back out a byte at a time, through its `printf` (~11 k instructions
/// a request, a tenth of a plain call); given it parsed, it copies the parts. Engine thread only; freed with
/// its last user, after the handle that points at it (a kept handle's ``KeptRequestValues``, the transfer
/// the handle serves).
final class ParsedURL {
    /// The URL as the request has it.
    let url: String
    /// libcurl's parsed URL (`CURLU *`).
    let handle: OpaquePointer

    /// Parses `url` as libcurl parses a `CURLOPT_URL` (with the same flags).
    ///
    /// - Throws: what the transfer would have failed with had libcurl parsed the URL itself: ``TransportError``
    ///   of kind `invalidURL` (curl 3, "URL rejected: …"), or `other` when libcurl is out of memory.
    init(_ url: String) throws(TransportError) {
        guard let handle = curl_url() else { throw Self.rejected(CURLUE_OUT_OF_MEMORY) }
        let code = curl_url_set(handle, CURLUPART_URL, url, UInt32(CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME))
        guard code == CURLUE_OK else {
            curl_url_cleanup(handle)
            throw Self.rejected(code)
        }
        self.url = url
        self.handle = handle
    }

    deinit { curl_url_cleanup(handle) }

    /// libcurl's error for a URL it refuses: its message, and the transfer's code for that refusal.
    private static func rejected(_ code: CURLUcode) -> TransportError {
        let curlCode = switch code {
        case CURLUE_UNSUPPORTED_SCHEME: CURLE_UNSUPPORTED_PROTOCOL
        case CURLUE_OUT_OF_MEMORY: CURLE_OUT_OF_MEMORY
        case CURLUE_USER_NOT_ALLOWED: CURLE_LOGIN_DENIED
        default: CURLE_URL_MALFORMAT
        }
        let message = "URL rejected: " + String(cString: curl_url_strerror(code))
        return CurlErrorMapping.error(code: Int(curlCode.rawValue), message: message, context: CurlErrorMapping.Context())
    }
}
