import CCurl

/// A libcurl easy handle and its error buffer, made and freed together.
struct EasyHandle {
    let raw: UnsafeMutableRawPointer
    let errorBuffer: UnsafeMutablePointer<CChar>

    /// A new handle, or `nil` if libcurl is out of memory.
    static func make() -> EasyHandle? {
        guard let raw = curl_easy_init() else { return nil }
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        buffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        return EasyHandle(raw: raw, errorBuffer: buffer)
    }

    /// Frees the handle; it must no longer be in a multi handle.
    func destroy() {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }
}
