import BrickTransport
import CCurl
import CCurlShim

extension CurlTransfer {
    /// Sets the transfer's options on its handle: every option on a new handle; on a kept one, whose last
    /// transfer had the same ``HandleProfile``, only those that belong to this request (the standing ones
    /// already hold the values this transfer would set), and of those only what differs from the handle's
    /// last request (``KeptRequestValues``).
    ///
    /// `pool` is where a new handle's connections come from (a kept handle keeps the pool of its profile,
    /// whose identity is the same). `last` is what the engine set for the transfer it launched last: its
    /// parsed URL and its header list, which this transfer uses when its own are the same (libcurl only
    /// reads them, so handles may share them).
    ///
    /// - Throws: ``TransportError`` of kind `other` when libcurl refuses an option.
    func configure(receiveBufferSize: Int, pool: ConnectionPools.Pool?, last: KeptRequestValues) throws(TransportError) {
        var setter = OptionSetter(handle: engine.handle.raw)
        if !engine.keptValues.isKept { setStandingOptions(&setter, receiveBufferSize: receiveBufferSize, pool: pool ?? .common) }
        try setRequestOptions(&setter, last: last)
        if let failure = setter.failure {
            throw TransportError(.other, curlCode: Int(failure.code.rawValue),
                                 message: "libcurl refused option \(failure.option.rawValue): \(String(cString: curl_easy_strerror(failure.code)))")
        }
    }

    /// The whole timeout this transfer's profile sets, in libcurl's milliseconds (0: none).
    var standingTimeout: Int {
        let options = request.options
        let total = options.timeout ?? (engine.mode == .collect ? options.collectTimeout : nil)
        return total?.curlMilliseconds ?? 0
    }

    /// Takes the time the transfer waited for a connection (``connectionWait``) off its whole timeout, so
    /// that the timeout still counts from the call. ``restoreStandingTimeout()`` puts the profile's back
    /// before the handle serves another transfer.
    func shortenTimeoutByConnectionWait() {
        let connectionWait = engine.connectionWait
        guard connectionWait > 0 else { return }  // the usual case: read first, the timeout is worked out
        let standing = standingTimeout
        guard standing > 0 else { return }
        let waited = Int(min(connectionWait / 1_000_000, UInt64(Int32.max)))
        _ = brick_easy_setopt_long(engine.handle.raw, CURLOPT_TIMEOUT_MS, max(1, standing - waited))
    }

    func restoreStandingTimeout() {
        guard engine.connectionWait > 0, standingTimeout > 0 else { return }
        _ = brick_easy_setopt_long(engine.handle.raw, CURLOPT_TIMEOUT_MS, standingTimeout)
    }

    /// The options of this one request: its URL (parsed: ``ParsedURL``), its method and body, its header list;
    /// and the handle's context pointed at this transfer.
    ///
    /// - Throws: ``TransportError`` of kind `invalidURL` when libcurl refuses the URL.
    private func setRequestOptions(_ setter: inout OptionSetter, last: KeptRequestValues) throws(TransportError) {
        let handle = engine.handle
        handle.serve(self)
        try setMethodAndBody(&setter, request, context: handle.context)
        // A kept handle keeps its last request's URL, parsed, and header list: each is set again only when it
        // differs.
        let kept = engine.keptValues
        if let parsed = kept.url, parsed.url == request.url {
            engine.parsedURL = parsed
        } else {
            let parsed: ParsedURL
            if let shared = last.url, shared.url == request.url { parsed = shared } else { parsed = try ParsedURL(request.url) }
            engine.parsedURL = parsed
            // With no URL string set, libcurl reads the URL from the parsed one when the transfer starts; with
            // the handle's last string still set, it would report that one as this transfer's effective URL.
            setter.string(CURLOPT_URL, nil)
            setter.pointer(CURLOPT_CURLU, UnsafeRawPointer(parsed.handle))
        }
        let hasBody = request.body != nil && request.method != .head
        let refusesExpect = hasBody && (request.body?.data.map { $0.count >= HeaderList.expectThreshold } ?? true)
        let acceptEncoding = request.options.automaticDecompression
        if let list = kept.headerList,
            list.isMade(from: request.headers, hasBody: hasBody, refusesExpect: refusesExpect, acceptEncoding: acceptEncoding)
        {
            engine.headerList = list
        } else {
            let list: HeaderList
            if let shared = last.headerList,
                shared.isMade(from: request.headers, hasBody: hasBody, refusesExpect: refusesExpect, acceptEncoding: acceptEncoding)
            {
                list = shared
            } else {
                list = HeaderList(request.headers, hasBody: hasBody, refusesExpect: refusesExpect, acceptEncoding: acceptEncoding)
            }
            engine.headerList = list
            setter.pointer(CURLOPT_HTTPHEADER, list.list)
        }
    }

    /// The options that depend only on the transfer's ``HandleProfile``: set once on a new handle.
    private func setStandingOptions(_ setter: inout OptionSetter, receiveBufferSize: Int, pool: ConnectionPools.Pool) {
        let options = request.options
        setter.long(CURLOPT_NOSIGNAL, 1)
        setter.pointer(CURLOPT_ERRORBUFFER, engine.handle.errorBuffer)
        // Every callback finds the transfer through the handle's context (`CURLOPT_PRIVATE` points there too).
        let context = engine.handle.context
        setter.pointer(CURLOPT_PREREQDATA, context)
        setter.pointer(CURLOPT_WRITEDATA, context)
        setter.pointer(CURLOPT_HEADERDATA, context)
        setter.pointer(CURLOPT_XFERINFODATA, context)
        setter.openSocket(CurlCallbacks.openSocket)
        setter.string(CURLOPT_PROTOCOLS_STR, "http,https")
        setter.string(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        // Redirects are followed by the session, one request per hop, under its own rules (origin, method,
        // downgrade): libcurl hands every 3xx back.
        setter.long(CURLOPT_FOLLOWLOCATION, 0)
        // One request per transfer: libcurl's own resend on a fresh connection is vetoed here for requests
        // that must not arrive twice (see `willSendRequest`).
        setter.prerequest(CurlCallbacks.prerequest)
        // A proxy's answer to CONNECT is not the response: keep it out of the head.
        setter.long(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        // Connections made under one identity carry requests of that identity only (``ConnectionPools``).
        var isolated = !options.reusesConnections
        switch pool {
        case .common: break
        case .own(let share): setter.pointer(CURLOPT_SHARE, share)
        case .isolated: isolated = true
        }
        if request.needsFreshConnection || isolated { setter.long(CURLOPT_FRESH_CONNECT, 1) }
        if isolated { setter.long(CURLOPT_FORBID_REUSE, 1) }
        setter.long(CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeout.curlMilliseconds)
        setter.long(CURLOPT_TIMEOUT_MS, standingTimeout)
        if let limit = options.lowSpeedLimit {
            setter.long(CURLOPT_LOW_SPEED_LIMIT, max(1, limit))
            setter.long(CURLOPT_LOW_SPEED_TIME, options.lowSpeedTime.curlSeconds)
        }
        // libcurl reads the receive buffer's size once, when it first allocates it, and then refuses a new
        // one: this is set only here, on a new handle, with the engine's one size.
        setter.long(CURLOPT_BUFFERSIZE, receiveBufferSize)
        Self.setRoute(&setter, options)
        if Self.isHTTPS(request.url) { Self.setTLS(&setter, options) }
        if options.httpVersion == .http1Only { setter.long(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1)) }
        // Content codings are decoded by the engine (``ContentDecoder``), never by libcurl: a paused stream
        // then holds compressed bytes, and a coding nobody knows is handed over as it came. The request's
        // header list asks for the codings (``HeaderList``).
        setter.long(CURLOPT_HTTP_CONTENT_DECODING, 0)
        switch engine.mode {
        case .collect: setter.offset(CURLOPT_MAXFILESIZE_LARGE, Int64(options.maxBodySize))
        case .stream:
            setter.long(CURLOPT_NOPROGRESS, 0)
            setter.progress(CurlCallbacks.progress)
        }
        setter.callback(CURLOPT_WRITEFUNCTION, CurlCallbacks.write)
        setter.callback(CURLOPT_HEADERFUNCTION, CurlCallbacks.header)
    }

    private func setMethodAndBody(_ setter: inout OptionSetter, _ request: TransportRequest, context: UnsafeMutableRawPointer) throws(TransportError) {
        switch request.method {
        case .get where request.body == nil:
            // A kept handle's last request had the same method and no body (``HandleProfile``): set already.
            if !engine.keptValues.isKept { setter.long(CURLOPT_HTTPGET, 1) }
        case .head:
            if !engine.keptValues.isKept { setter.long(CURLOPT_NOBODY, 1) }
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
            let source = try UploadSource(body: body, bufferSize: request.options.streamBufferSize) { [self] in wake() }
            engine.upload = source
            setter.long(CURLOPT_POST, 1)
            setter.offset(CURLOPT_POSTFIELDSIZE_LARGE, source.length ?? -1)
            setter.callback(CURLOPT_READFUNCTION, CurlCallbacks.read)
            setter.pointer(CURLOPT_READDATA, context)
            setter.seek(CurlCallbacks.seek)
            setter.pointer(CURLOPT_SEEKDATA, context)
        }
    }
}
