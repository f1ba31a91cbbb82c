import BrickSystem
import BrickTransport
import CCurl
import CCurlShim
import FoundationEssentials

/// What the engine thread does with a transfer while libcurl runs it: the head and the body as libcurl's
/// callbacks hand them over, the veto of libcurl's own resend, progress for a stream.
extension CurlTransfer {
    /// The head as parsed so far, or one made from the status code when no header line was seen.
    var head: ResponseHead {
        if let head = withEngine({ $0.parser.head }) { return head }  // in place: through `engine`, the parser was copied
        var status = 0
        _ = brick_easy_getinfo_long(engine.handle.raw, CURLINFO_RESPONSE_CODE, &status)
        return ResponseHead(status: status)
    }

    /// libcurl's write callback: a piece of body as it came (engine thread). A body in a content coding
    /// goes through ``receiveEncoded(_:)``.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Int {
        if !engine.decoderChosen { chooseDecoder() }
        if engine.decoder != nil { return receiveEncoded(bytes) }
        switch engine.mode {
        case .collect:
            return engine.take(bytes) ? bytes.count : 0
        case .stream:
            deliverHeadIfNeeded()
            switch offer(bytes) {
            case .accepted:
                engine.wireBytes += bytes.count
                scheduleFlush()
                return bytes.count
            case .pause:
                return Int(CURL_WRITEFUNC_PAUSE)
            case .abort: return 0
            }
        }
    }

    /// libcurl's pre-request callback: libcurl is about to send the request on a connection (engine
    /// thread). It runs once per request sent; a second run means libcurl is sending the same request
    /// again by itself (it does so, for any method, when a reused connection closed without an answer).
    /// A request that must not arrive twice is stopped there; the failure says it may have arrived.
    func willSendRequest() -> Bool {
        engine.sendCount += 1
        guard engine.sendCount > 1, !request.mayBeSentTwice else { return true }
        engine.refusedResend = true
        return false
    }

    /// libcurl's progress callback (engine thread, stream mode only): reports counts that moved. Download
    /// counts wait for the head, so that the head stays the first event.
    func progress(downloaded: Int64, downloadTotal: Int64, uploaded: Int64, uploadTotal: Int64) {
        // What moved, noted in one access to the engine side; reported after it.
        let (upload, download, uploadLength) = withEngine { side -> (Bool, Bool, Int64?) in
            let upload = side.hasUpload && uploaded != side.reportedUpload
            let download = side.headDelivered && downloaded != side.reportedDownload && downloaded > 0
            if upload { side.reportedUpload = uploaded }
            if download { side.reportedDownload = downloaded }
            return (upload, download, upload ? side.upload?.length : nil)
        }
        if upload {
            report(.uploadProgress(TransferProgress(
                completed: uploaded, expected: uploadTotal > 0 ? uploadTotal : uploadLength, bytesPerSecond: speed(CURLINFO_SPEED_UPLOAD_T))))
            scheduleFlush()
        }
        if download {
            report(.downloadProgress(TransferProgress(
                completed: downloaded, expected: downloadTotal, bytesPerSecond: speed(CURLINFO_SPEED_DOWNLOAD_T))))
            scheduleFlush()
        }
    }

    /// libcurl's average rate of one direction since the transfer began, in bytes per second.
    private func speed(_ info: CURLINFO) -> Double? {
        var rate: curl_off_t = 0
        guard brick_easy_getinfo_off(engine.handle.raw, info, &rate) == CURLE_OK, rate >= 0 else { return nil }
        return Double(rate)
    }

    /// Reports the final counts before the end of a successful streamed transfer (engine thread).
    func reportFinalProgress() {
        var downloaded: curl_off_t = 0, downloadTotal: curl_off_t = -1, uploaded: curl_off_t = 0, uploadTotal: curl_off_t = -1
        let handle = engine.handle.raw
        _ = brick_easy_getinfo_off(handle, CURLINFO_SIZE_DOWNLOAD_T, &downloaded)
        _ = brick_easy_getinfo_off(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &downloadTotal)
        _ = brick_easy_getinfo_off(handle, CURLINFO_SIZE_UPLOAD_T, &uploaded)
        _ = brick_easy_getinfo_off(handle, CURLINFO_CONTENT_LENGTH_UPLOAD_T, &uploadTotal)
        progress(downloaded: Int64(downloaded), downloadTotal: Int64(downloadTotal),
                 uploaded: Int64(uploaded), uploadTotal: Int64(uploadTotal))
    }

    /// Sends the head to a streaming consumer once, before the first chunk or at the end.
    func deliverHeadIfNeeded() {
        guard engine.mode == .stream, !engine.headDelivered else { return }
        engine.headDelivered = true
        push(.head(head))
    }
}

extension EngineSide {
    /// Appends to the collected body, within ``TransportOptions/maxBodySize``; `false` past it.
    mutating func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
        wireBytes += decoder == nil ? bytes.count : 0
        guard body.count + bytes.count <= maxBodySize else {
            exceededCap = true
            return false
        }
        if body.isEmpty && decoder == nil {
            var length: curl_off_t = -1
            _ = brick_easy_getinfo_off(handle.raw, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
            if length == bytes.count, let start = bytes.baseAddress {
                body = Data(bytes: start, count: bytes.count)  // the whole body in one piece: made at once
                return true
            }
            if length > 0 && length <= maxBodySize { body.reserveCapacity(Int(length)) }
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// libcurl's header callback: one header line (engine thread). `false` refuses the response: its head
    /// (trailers included) passed ``TransportOptions/maxHeaderSize``.
    mutating func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        parser.feed(bytes)
        guard parser.byteCount <= maxHeaderSize else {
            headTooLarge = true
            return false
        }
        return true
    }

    /// Records what a failure with `code` says about the response: libcurl reports a single field over its
    /// own limit (100 KiB) as "out of memory" while the head is being read; it is the head that is too large.
    mutating func noteFailure(_ code: CURLcode) {
        guard code == CURLE_OUT_OF_MEMORY, parser.byteCount > 0, !parser.finalHeadComplete else { return }
        headTooLarge = true
    }
}

extension CurlTransfer {
    /// Wakes the transfer's consumer at the end of the engine's pass (``FlushQueue``).
    func scheduleFlush() {
        let queue = engine.flushQueue  // taken out first: scheduling marks the transfer's engine side
        queue?.schedule(self)
    }

    /// Goes on decoding at the engine's next turn (``DecodeQueue``).
    func scheduleDecoding() {
        let queue = engine.decodeQueue
        queue?.schedule(self)
    }
}
