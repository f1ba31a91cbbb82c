import BrickSystem
import BrickTransport
import CCurl
import CCurlShim

extension CurlTransfer {
    /// Reads timings, reuse and sizes from the finished handle. (libcurl follows no redirect here: the
    /// session does, and counts them, so libcurl's count is always 0 and is not read.)
    func readMetrics() -> TransferMetrics {
        var metrics = TransferMetrics()
        var read = brick_metrics()
        brick_easy_metrics(engine.handle.raw, request.body == nil ? 0 : 1, &read)
        let connectionWait = engine.connectionWait
        metrics.times.nameLookupEnd = Int64(read.name_lookup_end)
        metrics.times.connectEnd = Int64(read.connect_end)
        metrics.times.tlsEnd = Int64(read.tls_end)
        metrics.times.requestStart = Int64(read.request_start)
        metrics.times.firstByte = Int64(read.first_byte)
        metrics.times.total = Int64(read.total)
        if connectionWait > 0 {
            // libcurl's clock started when the transfer was handed to it; the transfer started before that.
            let wait = Int64(min(connectionWait / 1000, UInt64(Int64.max)))
            metrics.times.connectionWait = wait
            for phase in [\TransferMetrics.Times.nameLookupEnd, \.connectEnd, \.tlsEnd, \.requestStart, \.firstByte, \.total]
            where metrics.times[keyPath: phase] > 0 {
                metrics.times[keyPath: phase] += wait
            }
        }
        metrics.reusedConnection = read.connects == 0
        metrics.bytesSent = Int64(read.bytes_sent)
        metrics.bytesReceived = Int64(read.bytes_received)
        var url: UnsafePointer<CChar>?
        if brick_easy_getinfo_string(engine.handle.raw, CURLINFO_EFFECTIVE_URL, &url) == CURLE_OK, let url {
            // Without redirects it is the request's URL: share that string rather than making another.
            var requested = request.url
            let same = requested.withUTF8 { cString(url, equals: UnsafeRawBufferPointer($0)) }  // a URL holds no NUL
            metrics.effectiveURL = same ? requested : String(cString: url)
        }
        return metrics
    }

    /// The errno of the last failed socket call, and whether a connection was made.
    func readFailureContext() -> CurlErrorMapping.Context {
        var context = CurlErrorMapping.Context()
        context.osErrno = Int32(truncatingIfNeeded: long(CURLINFO_OS_ERRNO))
        // A reused connection has no connect time of its own, but it did reach the request phase.
        context.connected = offset(CURLINFO_CONNECT_TIME_T) > 0 || offset(CURLINFO_PRETRANSFER_TIME_T) > 0
        context.exceededCap = engine.exceededCap || engine.inflatedPastRatio
        context.headTooLarge = engine.headTooLarge
        context.refusedResend = engine.refusedResend
        context.requestWentOut = engine.requestWentOut
        context.cancelled = isCancelled
        return context
    }

    /// libcurl's message for the failure: its error buffer, or the generic text for the code.
    func failureMessage(_ code: CURLcode) -> String {
        if engine.refusedResend {
            return "the connection closed without an answer after the request was sent: it may have arrived, "
                + "and a request that is not idempotent is not sent a second time"
        }
        if engine.headTooLarge {
            return code == CURLE_OUT_OF_MEMORY
                ? "a response header field is longer than libcurl accepts (100 KiB)"
                : "the response head passed \(engine.maxHeaderSize) bytes"
        }
        if engine.exceededCap { return "the response body passed \(engine.maxBodySize) bytes" }
        if code == CURLE_FILESIZE_EXCEEDED {
            return "the response declares a body of more than \(engine.maxBodySize) bytes (maxBodySize)"
        }
        if engine.inflatedPastRatio { return decodingError.message }
        let buffer = String(cString: engine.handle.errorBuffer)
        return buffer.isEmpty ? String(cString: curl_easy_strerror(code)) : buffer
    }

    private func long(_ info: CURLINFO) -> Int {
        var value = 0
        return brick_easy_getinfo_long(engine.handle.raw, info, &value) == CURLE_OK ? value : 0
    }

    private func offset(_ info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        return brick_easy_getinfo_off(engine.handle.raw, info, &value) == CURLE_OK ? Int64(value) : 0
    }

}
