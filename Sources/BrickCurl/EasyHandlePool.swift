import CCurl

/// A libcurl easy handle and its error buffer, kept together so that both are reused.
struct EasyHandle {
    let raw: UnsafeMutableRawPointer
    let errorBuffer: UnsafeMutablePointer<CChar>
}

/// Reuses easy handles across transfers (engine thread only): `curl_easy_init` allocates a large struct,
/// `curl_easy_reset` is much cheaper. Connections live in the multi handle, not here.
struct EasyHandlePool: ~Copyable {
    private var idle: [EasyHandle] = []
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    /// An idle handle with every option reset, or a new one; `nil` only if libcurl is out of memory.
    mutating func take() -> EasyHandle? {
        if let handle = idle.popLast() { return handle }
        guard let raw = curl_easy_init() else { return nil }
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        buffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        return EasyHandle(raw: raw, errorBuffer: buffer)
    }

    /// Returns a handle that is no longer in the multi handle.
    mutating func recycle(_ handle: EasyHandle) {
        guard idle.count < limit else { return Self.destroy(handle) }
        curl_easy_reset(handle.raw)
        handle.errorBuffer[0] = 0
        idle.append(handle)
    }

    /// Frees every idle handle.
    mutating func drain() {
        idle.forEach(Self.destroy)
        idle.removeAll()
    }

    private static func destroy(_ handle: EasyHandle) {
        curl_easy_cleanup(handle.raw)
        handle.errorBuffer.deallocate()
    }
}
