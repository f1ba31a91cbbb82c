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

/// Idle easy handles, kept for the next transfers (engine thread only).
///
/// A handle that has transferred keeps its receive buffer and its internal allocations; handing it to the
/// next transfer after `curl_easy_reset` (which returns every option to its default but keeps connections,
/// which live in the multi handle anyway) saves allocating and freeing them for every request.
struct EasyHandlePool {
    private var idle: [EasyHandle] = []
    /// At most this many idle handles are kept (each holds a receive buffer).
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        idle.reserveCapacity(capacity)
    }

    /// An idle handle, or a new one; `nil` if libcurl is out of memory.
    mutating func take() -> EasyHandle? {
        idle.popLast() ?? EasyHandle.make()
    }

    /// Takes back a handle that is no longer in the multi handle: reset and kept, or freed when the pool is full.
    mutating func recycle(_ handle: EasyHandle) {
        guard idle.count < capacity else { return handle.destroy() }
        curl_easy_reset(handle.raw)
        handle.errorBuffer[0] = 0
        idle.append(handle)
    }

    /// Frees every idle handle.
    mutating func drain() {
        for handle in idle { handle.destroy() }
        idle.removeAll()
    }
}
