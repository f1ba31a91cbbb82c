import BrickTransport
import CCurl
import CCurlShim

extension EasyTransfer {
    /// Sets every option of the transfer on its (freshly reset) handle.
    ///
    /// - Throws: ``TransportError`` when libcurl refuses an option (for example an unreadable CA bundle).
    func configure(receiveBufferSize: Int) throws(TransportError) {
        let request = transfer.request
        let options = request.options
        let context = Unmanaged.passUnretained(self).toOpaque()
        var setter = OptionSetter(handle: handle.raw)

        setter.string(CURLOPT_URL, request.url)
        setter.long(CURLOPT_NOSIGNAL, 1)
        setter.pointer(CURLOPT_ERRORBUFFER, handle.errorBuffer)
        setter.pointer(CURLOPT_PRIVATE, context)
        setter.openSocket(CurlCallbacks.openSocket)
        setter.string(CURLOPT_PROTOCOLS_STR, "http,https")
        setter.string(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        setter.long(CURLOPT_FOLLOWLOCATION, options.followRedirects ? 1 : 0)
        setter.long(CURLOPT_MAXREDIRS, options.maxRedirects)
        setter.long(CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeout.milliseconds)
        setter.long(CURLOPT_TIMEOUT_MS, options.timeout?.milliseconds ?? 0)
        if let limit = options.lowSpeedLimit {
            setter.long(CURLOPT_LOW_SPEED_LIMIT, limit)
            setter.long(CURLOPT_LOW_SPEED_TIME, max(1, (options.lowSpeedTime.milliseconds + 999) / 1000))
        }
        setter.long(CURLOPT_BUFFERSIZE, receiveBufferSize)
        setter.long(CURLOPT_SSL_VERIFYPEER, 1)
        setter.long(CURLOPT_SSL_VERIFYHOST, 2)
        if let caBundle = options.caBundlePath { setter.string(CURLOPT_CAINFO, caBundle) }
        if request.url.prefix(6).lowercased() == "https:" {
            setter.long(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
            setter.long(CURLOPT_PIPEWAIT, 1)
        }
        if options.automaticDecompression { setter.string(CURLOPT_ACCEPT_ENCODING, "") }
        switch mode {
        case .collect: setter.offset(CURLOPT_MAXFILESIZE_LARGE, Int64(options.maxBodySize))
        case .stream:
            setter.long(CURLOPT_NOPROGRESS, 0)
            setter.progress(CurlCallbacks.progress)
            setter.pointer(CURLOPT_XFERINFODATA, context)
        }

        setter.callback(CURLOPT_WRITEFUNCTION, CurlCallbacks.write)
        setter.pointer(CURLOPT_WRITEDATA, context)
        setter.callback(CURLOPT_HEADERFUNCTION, CurlCallbacks.header)
        setter.pointer(CURLOPT_HEADERDATA, context)

        try setMethodAndBody(&setter, request, context: context)
        headerList = Self.makeHeaderList(request.headers, hasBody: request.body != nil && request.method != .head)
        setter.pointer(CURLOPT_HTTPHEADER, headerList)

        if let failure = setter.failure {
            throw TransportError(.invalidRequest, curlCode: Int(failure.code.rawValue),
                                 message: "libcurl refused option \(failure.option.rawValue)")
        }
    }

    private func setMethodAndBody(_ setter: inout OptionSetter, _ request: TransportRequest, context: UnsafeMutableRawPointer) throws(TransportError) {
        switch request.method {
        case .get where request.body == nil:
            setter.long(CURLOPT_HTTPGET, 1)
        case .head:
            setter.long(CURLOPT_NOBODY, 1)
        default:
            if request.method != .post { setter.string(CURLOPT_CUSTOMREQUEST, request.method.rawValue) }
            guard let body = request.body else {
                if request.method == .post {
                    setter.offset(CURLOPT_POSTFIELDSIZE_LARGE, 0)
                    setter.string(CURLOPT_COPYPOSTFIELDS, "")
                }
                return
            }
            if let bytes = body.data {
                setter.offset(CURLOPT_POSTFIELDSIZE_LARGE, Int64(bytes.count))
                bytes.withUnsafeBytes { setter.pointer(CURLOPT_COPYPOSTFIELDS, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)) }
                return
            }
            let transfer = self.transfer
            let source = try UploadSource(body: body, bufferSize: request.options.streamBufferSize) { transfer.wake() }
            upload = source
            setter.long(CURLOPT_POST, 1)
            setter.offset(CURLOPT_POSTFIELDSIZE_LARGE, source.length ?? -1)
            setter.callback(CURLOPT_READFUNCTION, CurlCallbacks.read)
            setter.pointer(CURLOPT_READDATA, context)
            setter.seek(CurlCallbacks.seek)
            setter.pointer(CURLOPT_SEEKDATA, context)
        }
    }

    /// The header list libcurl sends: the request's fields (an empty value is sent with curl's `Name;`
    /// syntax), an empty `Expect:` so that bodies never wait for `100 Continue`, and an empty
    /// `Content-Type:` for a body without one, so that libcurl adds no form type of its own.
    private static func makeHeaderList(_ headers: HTTPHeaders, hasBody: Bool) -> UnsafeMutablePointer<curl_slist>? {
        var list: UnsafeMutablePointer<curl_slist>?
        for field in headers {
            let line = field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
            list = curl_slist_append(list, line)
        }
        if headers["Expect"] == nil { list = curl_slist_append(list, "Expect:") }
        if hasBody && headers["Content-Type"] == nil { list = curl_slist_append(list, "Content-Type:") }
        return list
    }
}

/// Calls the shim's setters and remembers the first option libcurl refused.
private struct OptionSetter {
    let handle: UnsafeMutableRawPointer
    var failure: (option: CURLoption, code: CURLcode)?

    mutating func long(_ option: CURLoption, _ value: Int) {
        record(option, brick_easy_setopt_long(handle, option, value))
    }
    mutating func offset(_ option: CURLoption, _ value: Int64) {
        record(option, brick_easy_setopt_off(handle, option, curl_off_t(value)))
    }
    mutating func string(_ option: CURLoption, _ value: String) {
        record(option, brick_easy_setopt_string(handle, option, value))
    }
    mutating func pointer(_ option: CURLoption, _ value: UnsafeRawPointer?) {
        record(option, brick_easy_setopt_pointer(handle, option, UnsafeMutableRawPointer(mutating: value)))
    }
    mutating func pointer(_ option: CURLoption, _ value: UnsafeMutablePointer<curl_slist>?) {
        record(option, brick_easy_setopt_pointer(handle, option, UnsafeMutableRawPointer(value)))
    }
    mutating func seek(_ callback: brick_seek_callback) {
        record(CURLOPT_SEEKFUNCTION, brick_easy_setopt_seek_callback(handle, callback))
    }
    mutating func progress(_ callback: brick_progress_callback) {
        record(CURLOPT_XFERINFOFUNCTION, brick_easy_setopt_progress_callback(handle, callback))
    }
    mutating func openSocket(_ callback: brick_opensocket_callback) {
        record(CURLOPT_OPENSOCKETFUNCTION, brick_easy_setopt_opensocket_callback(handle, callback))
    }
    mutating func callback(_ option: CURLoption, _ callback: brick_data_callback) {
        record(option, brick_easy_setopt_data_callback(handle, option, callback))
    }
    private mutating func record(_ option: CURLoption, _ code: CURLcode) {
        if code != CURLE_OK && failure == nil { failure = (option, code) }
    }
}

extension Duration {
    /// Whole milliseconds, saturating at `Int.max`.
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        let (millis, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? Int.max : Int(millis) + Int(attoseconds / 1_000_000_000_000_000)
    }
}
