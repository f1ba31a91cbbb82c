import BrickSystem
import BrickTransport
import CCurl
import CCurlShim

/// The engine thread's loop: applies commands, drives `curl_multi_perform`, hands out finished transfers,
/// and sleeps in `curl_multi_poll` until a socket is ready, a timer is due, or the mailbox wakes it.
/// Everything here is confined to the engine thread.
final class EngineLoop {
    let multi: UnsafeMutableRawPointer
    let mailbox: EngineMailbox
    private let configuration: CurlTransport.Configuration
    /// The transfers in the multi handle, which this table keeps alive; libcurl hands a finished one back
    /// through its handle's `CURLOPT_PRIVATE`.
    @exclusivity(unchecked) var byTransfer: [ObjectIdentifier: EngineTransfer] = [:]
    /// Handles kept from transfers that ended well, for the next transfers of the same profile.
    @exclusivity(unchecked) var idleHandles: IdleHandles
    /// The connection pools of requests that name an identity (client certificate, pins, CA, proxy).
    @exclusivity(unchecked) var pools = ConnectionPools()
    /// Transfers waiting for a free connection to their host, before they get a handle.
    @exclusivity(unchecked) var admission: Admission
    /// Transfers whose libcurl side ended while body still waited to be decoded (a stream's consumer had no
    /// room, or a pass did its share of work): out of the multi handle, their ends sent once the rest is
    /// decoded (``Draining``).
    @exclusivity(unchecked) var draining: [ObjectIdentifier: Draining] = [:]
    private let flushQueue = FlushQueue()
    private let decodeQueue = DecodeQueue()
    /// The commands being applied; swapped with the mailbox's queue so that neither side reallocates.
    @exclusivity(unchecked) private var batch: [EngineCommand] = []
    /// What `curl_multi_poll` watches besides libcurl's own sockets: the mailbox's eventfd.
    @exclusivity(unchecked) private var wakeup: curl_waitfd

    /// Raised when the loop has ended and the multi handle is cleaned up.
    let stopped: EngineStopped

    init(multi: UnsafeMutableRawPointer, mailbox: EngineMailbox, configuration: CurlTransport.Configuration, stopped: EngineStopped) {
        self.multi = multi
        self.mailbox = mailbox
        self.configuration = configuration
        self.stopped = stopped
        idleHandles = IdleHandles(capacity: min(configuration.maxConnectionsPerHost, 64))
        admission = Admission(perHost: configuration.maxConnectionsPerHost)
        wakeup = curl_waitfd(fd: mailbox.wakeupFD, events: Int16(CURL_WAIT_POLLIN), revents: 0)
    }

    func run() {
        blockBrokenPipeSignalsOnThisThread()  // libcurl writes to sockets (through OpenSSL too) only here
        while applyCommands() {
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            var easy: UnsafeMutableRawPointer?
            var code = CURLE_OK
            while brick_multi_next_done(multi, &easy, &code) == 1, let finished = easy {
                finish(finished, code)
            }
            continueDecoding()
            flushQueue.flush()
            var sleep: Int32 = decodeQueue.isEmpty ? 1000 : 0
            if admission.waitingCount > 0 {
                let now = Admission.now()
                for (transfer, failure) in admission.expired(now: now) { deliver(transfer, failure: failure) }
                sleep = admission.millisecondsToNextExpiry(now: now, cap: sleep)
            } else if admission.counting {
                admission.stopCountingIfIdle(runningTotal: byTransfer.count)
            }
            if mailbox.prepareToSleep() {
                var ready: Int32 = 0
                wakeup.revents = 0
                _ = curl_multi_poll(multi, &wakeup, 1, sleep, &ready)
                if wakeup.revents != 0 { mailbox.acknowledgeWakeup() }
            }
        }
        shutdown()
    }

    /// Applies queued commands; `false` when the engine must stop.
    private func applyCommands() -> Bool {
        mailbox.drain(into: &batch)
        defer { batch.removeAll(keepingCapacity: true) }
        for command in batch {
            switch command {
            case .start(let transfer): start(transfer)
            case .cancel(let transfer):
                if let easy = byTransfer[ObjectIdentifier(transfer)] { remove(easy) } else { _ = admission.remove(transfer) }
                draining[ObjectIdentifier(transfer)] = nil
            case .resume(let transfer):
                if let easy = byTransfer[ObjectIdentifier(transfer)] { resume(easy) } else { drain(ObjectIdentifier(transfer)) }
            case .shutdown: return false
            }
        }
        return true
    }

    /// Hands a new transfer to libcurl, or makes it wait (``Admission``) while its host's connections are
    /// all busy.
    private func start(_ transfer: CallerTransfer) {
        guard !transfer.isCancelled else { return }
        guard admission.counting || byTransfer.count >= admission.threshold else {
            return launch(transfer, key: nil, waited: 0)
        }
        if !admission.counting {
            for easy in byTransfer.values { easy.admissionKey = AdmissionKey(easy.transfer.request) }
            admission.startCounting(running: byTransfer.values.lazy.compactMap(\.admissionKey))
        }
        let key = AdmissionKey(transfer.request)
        guard admission.admit(key) else { return admission.enqueue(transfer, key: key, now: Admission.now()) }
        launch(transfer, key: key, waited: 0)
    }

    /// A transfer to `key` left the multi handle: the next ones waiting for that host get their turn.
    private func released(_ key: AdmissionKey) {
        admission.uncount(key)
        while case let next = admission.admitWaiting(key), !next.isEmpty {
            let before = byTransfer.count
            for (transfer, waited) in next { launch(transfer, key: key, waited: waited) }
            // Those that could not start hold no place: let as many others in.
            if byTransfer.count - before == next.count { return }
        }
    }

    /// Gives the transfer an easy handle and adds it to the multi handle; `key` is what it counts against
    /// while the engine counts, `waited` how long it waited for that.
    private func launch(_ transfer: CallerTransfer, key: AdmissionKey?, waited: UInt64) {
        // A kept handle of the same profile, never reset (`curl_easy_reset` would return it to defaults that
        // libcurl then refuses to change, such as the receive buffer after an HTTP/2 transfer), or a new one.
        let profile = HandleProfile(transfer)
        let kept = idleHandles.take(matching: profile)
        guard let handle = kept?.handle ?? EasyHandle.make() else {
            if let key { admission.uncount(key) }
            return deliver(transfer, failure: TransportError(.other, message: "libcurl could not allocate a handle"))
        }
        let easy = EngineTransfer(
            handle: handle, kept: kept?.values ?? .none, transfer: transfer, profile: profile, flushQueue: flushQueue, decodeQueue: decodeQueue)
        easy.admissionKey = key
        easy.connectionWait = waited
        do {
            let pool = kept == nil ? pools.pool(for: transfer.request.options) : nil
            try easy.configure(receiveBufferSize: configuration.receiveBufferSize, pool: pool)
        } catch {
            handle.destroy()
            if let key { admission.uncount(key) }
            return deliver(transfer, failure: error)
        }
        easy.shortenTimeoutByConnectionWait()
        let added = curl_multi_add_handle(multi, handle.raw)
        guard added == CURLM_OK else {
            handle.destroy()
            if let key { admission.uncount(key) }
            let message = String(cString: curl_multi_strerror(added))
            return deliver(transfer, failure: TransportError(.other, message: "libcurl refused the transfer: \(message)"))
        }
        byTransfer[ObjectIdentifier(transfer)] = easy
    }

    private func finish(_ raw: UnsafeMutableRawPointer, _ code: CURLcode) {
        var context: UnsafeMutableRawPointer?
        guard brick_easy_getinfo_pointer(raw, CURLINFO_PRIVATE, &context) == CURLE_OK, let context else { return }
        // Alive: a handle leaves the multi handle (which also drops its pending message) before its
        // transfer leaves `byTransfer`.
        let easy = Unmanaged<EngineTransfer>.fromOpaque(context).takeUnretainedValue()
        let transfer = easy.transfer
        if code == CURLE_OK {
            let metrics = easy.readMetrics()
            let head = easy.head
            if easy.mode == .stream {
                easy.deliverHeadIfNeeded()
                easy.reportFinalProgress()
            }
            let progress = easy.decodingWaits ? easy.decodePending() : .done
            remove(easy, keepingHandle: easy.mode == .collect && progress != .failed)
            switch progress {
            case .done: easy.end(head: head, metrics: metrics)
            case .waiting, .yielded: draining[ObjectIdentifier(transfer)] = Draining(easy: easy, head: head, metrics: metrics)
            case .failed: deliver(transfer, failure: easy.decodingError)
            }
        } else if easy.decodingFailure != nil {
            remove(easy)
            deliver(transfer, failure: easy.decodingError)
        } else if let failure = easy.upload?.failure {
            remove(easy)
            deliver(transfer, failure: failure)
        } else {
            easy.noteFailure(code)
            let error = CurlErrorMapping.error(
                code: Int(code.rawValue), message: easy.failureMessage(code), context: easy.readFailureContext())
            remove(easy)
            deliver(transfer, failure: error)
        }
    }

    /// Lets a paused transfer go on once its consumer made room: decoded body that waited is handed on
    /// first, and receiving resumes only when none is left (sending resumes either way).
    private func resume(_ easy: EngineTransfer) {
        if easy.decodingWaits {
            switch easy.decodePending() {
            case .failed:
                remove(easy)
                return deliver(easy.transfer, failure: easy.decodingError)
            case .waiting, .yielded:
                _ = curl_easy_pause(easy.handle.raw, CURLPAUSE_RECV)
                return
            case .done: break
            }
        }
        _ = curl_easy_pause(easy.handle.raw, CURLPAUSE_RECV_CONT | CURLPAUSE_SEND_CONT)
    }

    /// Hands on more of a draining transfer's decoded body, and its end once none is left; one past its
    /// deadline fails as timed out.
    private func drain(_ id: ObjectIdentifier) {
        guard let ending = draining[id] else { return }
        let easy = ending.easy
        if ending.isPastDeadline {
            draining[id] = nil
            return deliver(easy.transfer, failure: TransportError(.timedOut, message: "the body took longer than the request's timeout to decode"))
        }
        switch easy.decodePending() {
        case .waiting, .yielded: return
        case .done: easy.end(head: ending.head, metrics: ending.metrics)
        case .failed: deliver(easy.transfer, failure: easy.decodingError)
        }
        draining[id] = nil
    }

    /// Goes on decoding the transfers whose last pass did its share of work: in the multi handle, as when
    /// their consumer makes room (receiving resumes once nothing waits); out of it, as a draining one.
    private func continueDecoding() {
        guard !decodeQueue.isEmpty else { return }
        for easy in decodeQueue.take() {
            let id = ObjectIdentifier(easy.transfer)
            if byTransfer[id] === easy {
                resume(easy)
            } else if draining[id]?.easy === easy {
                drain(id)
            }
        }
    }

    /// Takes the transfer out of the multi handle (no callback fires after this). Its handle is kept for
    /// the next transfer of its profile only after a collected transfer that ended well (``IdleHandles``
    /// still refuses one that read its body through the read callback, which may have paused); any other is
    /// freed. Connections stay in the multi handle's pool either way.
    func remove(_ easy: EngineTransfer, keepingHandle: Bool = false) {
        _ = curl_multi_remove_handle(multi, easy.handle.raw)
        byTransfer[ObjectIdentifier(easy.transfer)] = nil
        if keepingHandle {
            easy.restoreStandingTimeout()
            idleHandles.keep(easy.handle, profile: easy.profile, values: KeptRequestValues(url: easy.transfer.request.url, headerList: easy.headerList))
        } else {
            easy.handle.destroy()
        }
        if admission.counting, let key = easy.admissionKey { released(key) }
    }
}
