import BrickSystem
import BrickTransport
import CCurl
import CCurlShim

/// What a link asks of the engine.
enum LinkCommand: Sendable {
    /// Make the connection (libcurl, with `CURLOPT_CONNECT_ONLY`).
    case connect
    /// Bytes were queued, or the reader made room: move bytes.
    case wake
    /// The caller closed the link: take it out and free its handle (and with it the connection).
    case close
}

/// How the engine loop drives the upgraded connections (``SocketLink``): libcurl makes each in the multi
/// handle, where its handle stays while it is in use, and the engine moves its bytes and polls its socket
/// beside libcurl's own.
extension EngineLoop {
    /// Where links' bytes are read into: one buffer for them all, made when the first is serviced.
    var linkScratch: UnsafeMutableRawBufferPointer {
        if let scratch = linkScratchStorage { return scratch }
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        linkScratchStorage = scratch
        return scratch
    }

    func apply(_ command: LinkCommand, to link: SocketLink) {
        switch command {
        case .connect: open(link)
        case .wake: if link.engineIsConnected, !link.engineService(scratch: linkScratch) { take(link) }
        case .close: take(link)
        }
    }

    /// Starts libcurl's connect for `link`: a new handle that only connects, over HTTP/1.1 (no ALPN for
    /// h2), on a connection of its own (never one from the pool; libcurl gives no other transfer a
    /// connect-only connection, and `CURLOPT_FORBID_REUSE` would close it as the connect ends), through the
    /// request's route (a proxy tunnels even a plain connection) and TLS.
    private func open(_ link: SocketLink) {
        guard link.shared.withLock({ $0.failure == nil }) else { return }
        guard let handle = EasyHandle.make() else {
            link.end(with: TransportError(.other, message: "libcurl could not allocate a handle"))
            return
        }
        let request = link.request
        let options = request.options
        var setter = OptionSetter(handle: handle.raw)
        setter.string(CURLOPT_URL, request.url)
        setter.long(CURLOPT_CONNECT_ONLY, 1)
        setter.long(CURLOPT_FRESH_CONNECT, 1)
        setter.long(CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeout.curlMilliseconds)
        setter.pointer(CURLOPT_ERRORBUFFER, handle.errorBuffer)
        CurlTransfer.setRoute(&setter, options)
        if case .through = options.proxy { setter.long(CURLOPT_HTTPPROXYTUNNEL, 1) }
        if CurlTransfer.isHTTPS(request.url) { CurlTransfer.setTLS(&setter, options) }
        setter.long(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        if let failure = setter.failure {
            handle.destroy()
            let said = String(cString: curl_easy_strerror(failure.code))
            link.end(with: TransportError(.other, curlCode: Int(failure.code.rawValue), message: "libcurl refused an option: \(said)"))
            return
        }
        guard curl_multi_add_handle(multi, handle.raw) == CURLM_OK else {
            handle.destroy()
            link.end(with: TransportError(.other, message: "libcurl refused the connection"))
            return
        }
        link.engine.handle = handle
        links.append(link)
    }

    /// libcurl finished the connect of the link whose handle is `raw`: it is connected (its handle stays
    /// in the multi handle), or failed and is taken out.
    func finishLink(_ raw: UnsafeMutableRawPointer, _ code: CURLcode) {
        guard let link = links.first(where: { $0.engine.handle?.raw == raw }) else { return }
        var socket: curl_socket_t = -1
        if code == CURLE_OK, brick_easy_getinfo_socket(raw, &socket) == CURLE_OK, socket >= 0 {
            link.engineConnected(socket: socket)
            if !link.engineService(scratch: linkScratch) { take(link) }
            return
        }
        let message = link.engine.handle.map { String(cString: $0.errorBuffer) } ?? ""
        var context = CurlErrorMapping.Context()
        var osErrno = 0
        if brick_easy_getinfo_long(raw, CURLINFO_OS_ERRNO, &osErrno) == CURLE_OK { context.osErrno = Int32(truncatingIfNeeded: osErrno) }
        let failure = code == CURLE_OK
            ? TransportError(.other, message: "libcurl connected but gave no socket")
            : CurlErrorMapping.error(code: Int(code.rawValue), message: message.isEmpty ? String(cString: curl_easy_strerror(code)) : message, context: context)
        link.end(with: failure)
        take(link)
    }

    /// Moves the bytes of every connected link whose socket is ready (or all of them: a reader that made room
    /// or a writer that queued also posts a wake), and takes out those that broke.
    func serviceLinks(_ ready: UnsafeMutableBufferPointer<curl_waitfd>) {
        for waited in ready where waited.revents != 0 {
            guard let link = links.first(where: { $0.engine.socket == waited.fd }) else { continue }
            if !link.engineService(scratch: linkScratch) { take(link) }
        }
    }

    /// What to poll besides libcurl's sockets: the mailbox's eventfd, then each connected link's socket.
    func linkPollDescriptors() -> [curl_waitfd] {
        var descriptors = [curl_waitfd(fd: mailbox.wakeupFD, events: Int16(CURL_WAIT_POLLIN), revents: 0)]
        for link in links where link.engineIsConnected {
            let events = link.enginePollEvents
            if events != 0 { descriptors.append(curl_waitfd(fd: link.engine.socket, events: events, revents: 0)) }
        }
        return descriptors
    }

    /// Takes `link` out of the engine: its handle leaves the multi handle and is freed (closing its
    /// connection); whoever waits on it was told why by ``SocketLink/end(with:)``.
    func take(_ link: SocketLink) {
        link.end(with: TransportError(.connectionLost, message: "the upgraded connection was closed"))
        if let index = links.firstIndex(where: { $0 === link }) { links.remove(at: index) }
        if let handle = link.engine.handle {
            _ = curl_multi_remove_handle(multi, handle.raw)
            handle.destroy()
            link.engine.handle = nil
            link.engine.socket = -1
        }
    }
}
