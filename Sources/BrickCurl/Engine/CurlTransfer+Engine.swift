import BrickSystem
import BrickTransport
import CCurl
import CCurlShim
import FoundationEssentials

/// The engine thread's side of one transfer: the easy handle, the head being parsed, the collected body.
/// Never leaves the engine thread; libcurl's callbacks reach it through an unretained pointer, and the
/// engine's table keeps it alive until the handle has been removed from the multi handle.
final class EngineTransfer {
    let handle: EasyHandle
    let transfer: CallerTransfer
    let mode: CallerTransfer.Mode
    /// What the handle's standing options were set for: the handle may serve the next transfer that has it.
    let profile: HandleProfile
    /// Where accepted chunks are announced, so that the consumer is woken after the engine's pass.
    let flushQueue: FlushQueue
    /// Whether ``flushQueue`` already holds this transfer for the current pass.
    @exclusivity(unchecked) var flushScheduled = false
    /// Where a transfer whose decoding did its share of work waits for the engine's next turn.
    let decodeQueue: DecodeQueue
    /// Whether ``decodeQueue`` already holds this transfer.
    @exclusivity(unchecked) var decodeScheduled = false
    /// Whether the request sends a body, so that upload progress means something.
    private let hasUpload: Bool
    /// The header list libcurl sends for this transfer (perhaps the handle's last one, used again).
    @exclusivity(unchecked) var headerList: HeaderList?
    /// What a kept handle's last request left set on it; ``KeptRequestValues/none`` for a new handle.
    let keptValues: KeptRequestValues
    /// The body when it is sent through the read callback (files, streams, several parts).
    @exclusivity(unchecked) var upload: UploadSource?
    @exclusivity(unchecked) private(set) var parser = HeadParser()
    @exclusivity(unchecked) private(set) var headDelivered = false
    @exclusivity(unchecked) private(set) var body = Data()
    @exclusivity(unchecked) var exceededCap = false
    /// Whether the decompressed body outgrew ``TransportOptions/maxDecompressionRatio``.
    @exclusivity(unchecked) var inflatedPastRatio = false
    /// The decoder of the body's content codings, once the first body bytes showed there is one to decode
    /// (``decoderChosen``); `nil` for a body handed over as it came.
    @exclusivity(unchecked) var decoder: ContentDecoder?
    @exclusivity(unchecked) var decoderChosen = false
    /// Why decoding the body failed (it is not valid in its coding).
    @exclusivity(unchecked) var decodingFailure: TransportError?
    /// Body bytes that arrived, and what decoding made of them.
    @exclusivity(unchecked) var wireBytes = 0
    @exclusivity(unchecked) var decodedBytes = 0
    /// Whether the response head passed ``TransportOptions/maxHeaderSize`` (or libcurl's limit for one
    /// field), so that it was refused.
    @exclusivity(unchecked) private(set) var headTooLarge = false
    /// How many times libcurl was about to send the request (its pre-request callback).
    @exclusivity(unchecked) private var sendCount = 0
    /// Whether libcurl was stopped from sending the request a second time on a fresh connection.
    @exclusivity(unchecked) private(set) var refusedResend = false
    /// Whether libcurl began sending the request at least once (its pre-request callback ran).
    var requestWentOut: Bool { sendCount > 0 }
    /// The counts last reported to a streaming consumer (`-1`: none yet).
    @exclusivity(unchecked) private var reportedUpload: Int64 = -1
    @exclusivity(unchecked) private var reportedDownload: Int64 = -1
    /// The host this transfer counts against while the engine counts them (``Admission``); `nil` when it
    /// started while nothing was counted.
    @exclusivity(unchecked) var admissionKey: AdmissionKey?
    /// How long the transfer waited for a free connection before it was handed to libcurl, in nanoseconds.
    @exclusivity(unchecked) var connectionWait: UInt64 = 0

    init(
        handle: EasyHandle, kept: KeptRequestValues, transfer: CallerTransfer, profile: HandleProfile, flushQueue: FlushQueue,
        decodeQueue: DecodeQueue
    ) {
        self.handle = handle
        keptValues = kept
        self.transfer = transfer
        self.profile = profile
        self.flushQueue = flushQueue
        self.decodeQueue = decodeQueue
        self.mode = transfer.mode
        self.hasUpload = transfer.request.body != nil && transfer.request.method != .head
    }

    /// The head as parsed so far, or one made from the status code when no header line was seen.
    var head: ResponseHead {
        if let head = parser.head { return head }
        var status = 0
        _ = brick_easy_getinfo_long(handle.raw, CURLINFO_RESPONSE_CODE, &status)
        return ResponseHead(status: status)
    }

    /// libcurl's write callback: a piece of body as it came (engine thread). A body in a content coding
    /// goes through ``receiveEncoded(_:)``.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Int {
        if !decoderChosen { chooseDecoder() }
        if decoder != nil { return receiveEncoded(bytes) }
        switch mode {
        case .collect:
            wireBytes += bytes.count
            return take(bytes) ? bytes.count : 0
        case .stream:
            deliverHeadIfNeeded()
            switch transfer.offer(bytes) {
            case .accepted:
                wireBytes += bytes.count
                flushQueue.schedule(self)
                return bytes.count
            case .pause:
                return Int(CURL_WRITEFUNC_PAUSE)
            case .abort: return 0
            }
        }
    }

    /// Appends to the collected body, within ``TransportOptions/maxBodySize``; `false` past it.
    func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= transfer.request.options.maxBodySize else {
            exceededCap = true
            return false
        }
        if body.isEmpty && decoder == nil { reserveForContentLength() }
        body.append(contentsOf: bytes)
        return true
    }

    /// libcurl's header callback: one header line (engine thread). `false` refuses the response: its head
    /// (trailers included) passed ``TransportOptions/maxHeaderSize``.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        parser.feed(bytes)
        guard parser.byteCount <= transfer.request.options.maxHeaderSize else {
            headTooLarge = true
            return false
        }
        return true
    }

    /// Records what a failure with `code` says about the response: libcurl reports a single field over its
    /// own limit (100 KiB) as "out of memory" while the head is being read; it is the head that is too large.
    func noteFailure(_ code: CURLcode) {
        guard code == CURLE_OUT_OF_MEMORY, parser.byteCount > 0, !parser.finalHeadComplete else { return }
        headTooLarge = true
    }

    /// libcurl's pre-request callback: libcurl is about to send the request on a connection (engine
    /// thread). It runs once per request sent; a second run means libcurl is sending the same request
    /// again by itself (it does so, for any method, when a reused connection closed without an answer).
    /// A request that must not arrive twice is stopped there; the failure says it may have arrived.
    func willSendRequest() -> Bool {
        sendCount += 1
        guard sendCount > 1, !transfer.request.mayBeSentTwice else { return true }
        refusedResend = true
        return false
    }

    /// libcurl's progress callback (engine thread, stream mode only): reports counts that moved. Download
    /// counts wait for the head, so that the head stays the first event.
    func progress(downloaded: Int64, downloadTotal: Int64, uploaded: Int64, uploadTotal: Int64) {
        if hasUpload && uploaded != reportedUpload {
            reportedUpload = uploaded
            transfer.report(.uploadProgress(TransferProgress(
                completed: uploaded, expected: uploadTotal > 0 ? uploadTotal : upload?.length, bytesPerSecond: speed(CURLINFO_SPEED_UPLOAD_T))))
            flushQueue.schedule(self)
        }
        if headDelivered && downloaded != reportedDownload && downloaded > 0 {
            reportedDownload = downloaded
            transfer.report(.downloadProgress(TransferProgress(
                completed: downloaded, expected: downloadTotal, bytesPerSecond: speed(CURLINFO_SPEED_DOWNLOAD_T))))
            flushQueue.schedule(self)
        }
    }

    /// libcurl's average rate of one direction since the transfer began, in bytes per second.
    private func speed(_ info: CURLINFO) -> Double? {
        var rate: curl_off_t = 0
        guard brick_easy_getinfo_off(handle.raw, info, &rate) == CURLE_OK, rate >= 0 else { return nil }
        return Double(rate)
    }

    /// Reports the final counts before the end of a successful streamed transfer (engine thread).
    func reportFinalProgress() {
        var downloaded: curl_off_t = 0, downloadTotal: curl_off_t = -1, uploaded: curl_off_t = 0, uploadTotal: curl_off_t = -1
        _ = brick_easy_getinfo_off(handle.raw, CURLINFO_SIZE_DOWNLOAD_T, &downloaded)
        _ = brick_easy_getinfo_off(handle.raw, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &downloadTotal)
        _ = brick_easy_getinfo_off(handle.raw, CURLINFO_SIZE_UPLOAD_T, &uploaded)
        _ = brick_easy_getinfo_off(handle.raw, CURLINFO_CONTENT_LENGTH_UPLOAD_T, &uploadTotal)
        progress(downloaded: Int64(downloaded), downloadTotal: Int64(downloadTotal),
                 uploaded: Int64(uploaded), uploadTotal: Int64(uploadTotal))
    }


    /// Sends the head to a streaming consumer once, before the first chunk or at the end.
    func deliverHeadIfNeeded() {
        guard mode == .stream, !headDelivered else { return }
        headDelivered = true
        transfer.push(.head(head))
    }

    private func reserveForContentLength() {
        var length: curl_off_t = -1
        _ = brick_easy_getinfo_off(handle.raw, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
        if length > 0 && length <= transfer.request.options.maxBodySize { body.reserveCapacity(Int(length)) }
    }
}

/// libcurl's C callbacks: they only find the ``EngineTransfer`` behind the context pointer and forward.
enum CurlCallbacks {
    static let write: brick_data_callback = { data, size, count, context in
        guard let context else { return 0 }
        let easy = Unmanaged<EngineTransfer>.fromOpaque(context).takeUnretainedValue()
        return easy.receive(UnsafeRawBufferPointer(start: data, count: size * count))
    }

    static let read: brick_data_callback = { data, size, count, context in
        guard let context, let data, let upload = Unmanaged<EngineTransfer>.fromOpaque(context).takeUnretainedValue().upload
        else { return Int(CURL_READFUNC_ABORT) }
        return upload.read(into: UnsafeMutableRawBufferPointer(start: data, count: size * count))
    }

    static let seek: brick_seek_callback = { context, offset, origin in
        guard let context, origin == SEEK_SET,
            let upload = Unmanaged<EngineTransfer>.fromOpaque(context).takeUnretainedValue().upload
        else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
        return upload.seek(to: Int64(offset)) ? Int32(CURL_SEEKFUNC_OK) : Int32(CURL_SEEKFUNC_CANTSEEK)
    }

    /// Opens the transfer's sockets close-on-exec, atomically: libcurl 7.88 opens them without it, so a
    /// process the application spawns would inherit every open connection and keep it alive after
    /// libcurl closed it (the server would never see the close).
    static let openSocket: brick_opensocket_callback = { _, _, address in
        guard let address else { return CURL_SOCKET_BAD }
        let fd = openSocketClosedOnExec(family: address.pointee.family, type: address.pointee.socktype, protocol: address.pointee.protocol)
        return fd >= 0 ? fd : CURL_SOCKET_BAD
    }

    static let progress: brick_progress_callback = { context, downloadTotal, downloaded, uploadTotal, uploaded in
        guard let context else { return 0 }
        Unmanaged<EngineTransfer>.fromOpaque(context).takeUnretainedValue().progress(
            downloaded: Int64(downloaded), downloadTotal: Int64(downloadTotal),
            uploaded: Int64(uploaded), uploadTotal: Int64(uploadTotal))
        return 0
    }

    static let header: brick_data_callback = { data, size, count, context in
        guard let context else { return 0 }
        let easy = Unmanaged<EngineTransfer>.fromOpaque(context).takeUnretainedValue()
        return easy.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
    }

    static let prerequest: brick_prereq_callback = { context, _, _, _, _ in
        guard let context else { return Int32(CURL_PREREQFUNC_ABORT) }
        let easy = Unmanaged<EngineTransfer>.fromOpaque(context).takeUnretainedValue()
        return easy.willSendRequest() ? Int32(CURL_PREREQFUNC_OK) : Int32(CURL_PREREQFUNC_ABORT)
    }
}
