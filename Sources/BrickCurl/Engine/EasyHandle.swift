import CCurl
import CCurlShim

/// A libcurl easy handle, with the memory libcurl and the engine use beside it: its context, its error buffer
/// and room for a response head's field lines, made and freed together (the last three in one allocation).
struct EasyHandle {
    let raw: UnsafeMutableRawPointer
    /// What libcurl hands every callback of the handle, and its `CURLOPT_PRIVATE`: a slot holding the
    /// transfer the handle serves (``serve(_:)``), nothing while it is idle. libcurl's pointers to it are set
    /// once per handle; each transfer then costs one store, not four options (five for a stream) and one more
    /// to clear when the handle is kept.
    let context: UnsafeMutableRawPointer
    let errorBuffer: UnsafeMutablePointer<CChar>
    /// Where the head parser gathers the field lines of the head being read (``HeadParser``), so that a
    /// usual head is copied into a response once, at its end, in an allocation of its size. A handle serves
    /// one transfer at a time, and is kept for the next, so the room is allocated once per handle.
    let headLines: UnsafeMutableRawBufferPointer

    /// The bytes of room for head lines: what a usual API response's head needs; a larger head goes on in a
    /// growing array.
    static let headLineRoom = 2048

    /// What a transfer's engine side holds until the engine launches it: no handle. It never reaches
    /// libcurl: the engine side refuses every access before its launch (``CurlTransfer/engine``).
    static var unset: EasyHandle {
        EasyHandle(
            raw: UnsafeMutableRawPointer(bitPattern: 1)!, context: UnsafeMutableRawPointer(bitPattern: 1)!,
            errorBuffer: UnsafeMutablePointer(bitPattern: 1)!, headLines: UnsafeMutableRawBufferPointer(start: nil, count: 0))
    }

    /// A new handle, or `nil` if libcurl is out of memory. It is made with `CURLOPT_NOSIGNAL` at once:
    /// without it, libcurl ignores SIGPIPE process-wide around some calls (freeing the handle among them)
    /// and restores it afterwards, which races with the same dance on other threads and can leave SIGPIPE
    /// ignored for the whole process.
    static func make() -> EasyHandle? {
        guard let raw = curl_easy_init() else { return nil }
        _ = brick_easy_setopt_long(raw, CURLOPT_NOSIGNAL, 1)
        let slot = MemoryLayout<UnsafeMutableRawPointer?>.stride, errorSize = Int(CURL_ERROR_SIZE)
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: slot + errorSize + headLineRoom, alignment: MemoryLayout<UnsafeMutableRawPointer?>.alignment)
        memory.initializeMemory(as: UnsafeMutableRawPointer?.self, repeating: nil, count: 1)
        let buffer = (memory + slot).initializeMemory(as: CChar.self, repeating: 0, count: errorSize)
        let room = UnsafeMutableRawBufferPointer(start: memory + slot + errorSize, count: headLineRoom)
        _ = brick_easy_setopt_pointer(raw, CURLOPT_PRIVATE, memory)
        return EasyHandle(raw: raw, context: memory, errorBuffer: buffer, headLines: room)
    }

    /// Points the handle's context at `transfer`, which it serves until ``prepareForReuse()`` (the engine's
    /// list of running transfers keeps it alive that long).
    func serve(_ transfer: CurlTransfer) {
        context.storeBytes(of: Unmanaged.passUnretained(transfer).toOpaque(), as: UnsafeMutableRawPointer?.self)
    }

    /// The transfer the handle whose context is `context` serves; `nil` for none.
    static func transfer(at context: UnsafeMutableRawPointer?) -> Unmanaged<CurlTransfer>? {
        guard let transfer = context?.load(as: UnsafeMutableRawPointer?.self) else { return nil }
        return Unmanaged.fromOpaque(transfer)
    }

    /// Readies a handle that left its multi handle for the idle list: its error message is cleared, and it no
    /// longer points at its last transfer. (It still points at that transfer's header list, which the idle
    /// list keeps alive with it: ``KeptRequestValues``.)
    func prepareForReuse() {
        errorBuffer[0] = 0
        context.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
    }

    /// Frees the handle; it must no longer be in a multi handle.
    func destroy() {
        curl_easy_cleanup(raw)
        context.deallocate()  // with the error buffer and the room for head lines: one allocation
    }
}
