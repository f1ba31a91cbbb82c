import CCurl
import CCurlShim

/// A libcurl easy handle and its error buffer, made and freed together.
struct EasyHandle {
    let raw: UnsafeMutableRawPointer
    let errorBuffer: UnsafeMutablePointer<CChar>

    /// What a transfer's engine side holds until the engine launches it: no handle. It never reaches
    /// libcurl: the engine side refuses every access before its launch (``CurlTransfer/engine``).
    static var unset: EasyHandle { EasyHandle(raw: UnsafeMutableRawPointer(bitPattern: 1)!, errorBuffer: UnsafeMutablePointer(bitPattern: 1)!) }

    /// A new handle, or `nil` if libcurl is out of memory. It is made with `CURLOPT_NOSIGNAL` at once:
    /// without it, libcurl ignores SIGPIPE process-wide around some calls (freeing the handle among them)
    /// and restores it afterwards, which races with the same dance on other threads and can leave SIGPIPE
    /// ignored for the whole process.
    static func make() -> EasyHandle? {
        guard let raw = curl_easy_init() else { return nil }
        _ = brick_easy_setopt_long(raw, CURLOPT_NOSIGNAL, 1)
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        buffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        return EasyHandle(raw: raw, errorBuffer: buffer)
    }

    /// Readies a handle that left its multi handle for the idle list: its error message is cleared, and it no
    /// longer points at its last transfer. (It still points at that transfer's header list, which the idle
    /// list keeps alive with it: ``KeptRequestValues``.)
    func prepareForReuse() {
        errorBuffer[0] = 0
        _ = brick_easy_setopt_pointer(raw, CURLOPT_PRIVATE, nil)
    }

    /// Frees the handle; it must no longer be in a multi handle.
    func destroy() {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }
}
