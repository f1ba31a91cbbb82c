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
    let thread: EngineThread
    let configuration: CurlTransport.Configuration
    /// The transfers in the multi handle, which this list keeps alive; each knows its place in it
    /// (``EngineSide/slot``), so that adding and removing one is constant time without a hash. libcurl hands
    /// a finished one back through its handle's `CURLOPT_PRIVATE`.
    @exclusivity(unchecked) var running: [CurlTransfer] = []
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
    let flushQueue = FlushQueue()
    let decodeQueue = DecodeQueue()
    /// The commands being applied; swapped with the mailbox's queue so that neither side reallocates.
    @exclusivity(unchecked) private var batch: [EngineCommand] = []
    /// The parsed URL and header list set for the last transfer launched: the next ones with the same share
    /// them, on new handles too (a burst to one endpoint parses its URL and builds its list once, and holds
    /// each once).
    @exclusivity(unchecked) private var last = KeptRequestValues.none
    /// What `curl_multi_poll` watches besides libcurl's own sockets: the mailbox's eventfd.
    @exclusivity(unchecked) private var wakeup: curl_waitfd

    /// The upgraded connections (``SocketLink``), connecting or connected: their handles sit in the multi
    /// handle, their sockets in the poll.
    @exclusivity(unchecked) var links: [SocketLink] = []
    /// Where links' bytes are read into (``linkScratch``), made when the first link is serviced.
    @exclusivity(unchecked) var linkScratchStorage: UnsafeMutableRawBufferPointer?

    /// Raised when the loop has ended and the multi handle is cleaned up.
    let stopped: EngineStopped

    init(
        multi: UnsafeMutableRawPointer, mailbox: EngineMailbox, thread: EngineThread, configuration: CurlTransport.Configuration,
        stopped: EngineStopped
    ) {
        self.multi = multi
        self.mailbox = mailbox
        self.thread = thread
        self.configuration = configuration
        self.stopped = stopped
        idleHandles = IdleHandles(capacity: min(configuration.maxConnectionsPerHost, 64))
        admission = Admission(perHost: configuration.maxConnectionsPerHost)
        wakeup = curl_waitfd(fd: mailbox.wakeupFD, events: Int16(CURL_WAIT_POLLIN), revents: 0)
    }

    func run() {
        thread.enter()
        blockBrokenPipeSignalsOnThisThread()  // libcurl writes to sockets (through OpenSSL too) only here
        while applyCommands() {
            var active: Int32 = 0
            _ = curl_multi_perform(multi, &active)
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
                admission.stopCountingIfIdle(runningTotal: running.count)
            }
            if !links.isEmpty {
                pollWithLinks(sleep: sleep)
            } else if mailbox.prepareToSleep() {
                var ready: Int32 = 0
                wakeup.revents = 0
                _ = curl_multi_poll(multi, &wakeup, 1, sleep, &ready)
                if wakeup.revents != 0 { mailbox.acknowledgeWakeup() }
            }
        }
        shutdown()
    }

    /// Sleeps in `curl_multi_poll` watching the links' sockets too (with the mailbox's eventfd), then moves
    /// the bytes of those that are ready.
    private func pollWithLinks(sleep: Int32) {
        var descriptors = linkPollDescriptors()
        guard mailbox.prepareToSleep() else { return }
        var ready: Int32 = 0
        _ = descriptors.withUnsafeMutableBufferPointer { buffer in
            curl_multi_poll(multi, buffer.baseAddress, UInt32(buffer.count), sleep, &ready)
        }
        if descriptors[0].revents != 0 { mailbox.acknowledgeWakeup() }
        descriptors.withUnsafeMutableBufferPointer { serviceLinks(UnsafeMutableBufferPointer(rebasing: $0.dropFirst())) }
    }

    /// Whether `transfer` is in the multi handle now.
    func isRunning(_ transfer: CurlTransfer) -> Bool { transfer.isLaunched && transfer.engine.slot >= 0 }

    /// Applies queued commands; `false` when the engine must stop.
    private func applyCommands() -> Bool {
        mailbox.drain(into: &batch)
        // Emptied keeping its storage, one command at a time: `removeAll(keepingCapacity:)` goes through the
        // generic range replacement, which costs more than the usual batch of one.
        defer { while batch.popLast() != nil {} }
        for command in batch {
            switch command {
            case .start(let transfer): start(transfer)
            case .cancel(let transfer):
                if isRunning(transfer) { remove(transfer) } else { _ = admission.remove(transfer) }
                draining[ObjectIdentifier(transfer)] = nil
            case .resume(let transfer):
                if isRunning(transfer) { resume(transfer) } else { drain(ObjectIdentifier(transfer)) }
            case .link(let link, let command): apply(command, to: link)
            case .shutdown: return false
            }
        }
        return true
    }

    /// Hands a new transfer to libcurl, or makes it wait (``Admission``) while its host's connections are
    /// all busy.
    private func start(_ transfer: CurlTransfer) {
        guard !transfer.isCancelled else { return }
        guard admission.counting || running.count >= admission.threshold else {
            return launch(transfer, key: nil, waited: 0)
        }
        if !admission.counting {
            for transfer in running { transfer.engine.admissionKey = AdmissionKey(transfer.request) }
            admission.startCounting(running: running.lazy.compactMap { $0.engine.admissionKey })
        }
        let key = AdmissionKey(transfer.request)
        guard admission.admit(key) else { return admission.enqueue(transfer, key: key, now: Admission.now()) }
        launch(transfer, key: key, waited: 0)
    }

    /// A transfer to `key` left the multi handle: the next ones waiting for that host get their turn.
    func released(_ key: AdmissionKey) {
        admission.uncount(key)
        while case let next = admission.admitWaiting(key), !next.isEmpty {
            let before = running.count
            for (transfer, waited) in next { launch(transfer, key: key, waited: waited) }
            // Those that could not start hold no place: let as many others in.
            if running.count - before == next.count { return }
        }
    }

    /// Gives the transfer its engine side, with an easy handle, and adds it to the multi handle; `key` is
    /// what it counts against while the engine counts, `waited` how long it waited for that.
    private func launch(_ transfer: CurlTransfer, key: AdmissionKey?, waited: UInt64) {
        // A kept handle of the same profile, never reset (`curl_easy_reset` would return it to defaults that
        // libcurl then refuses to change, such as the receive buffer after an HTTP/2 transfer), or a new one.
        let profile = HandleProfile(of: transfer, mode: transfer.mode)
        let kept = idleHandles.take(matching: profile)
        guard let handle = kept?.handle ?? EasyHandle.make() else {
            if let key { admission.uncount(key) }
            return deliver(transfer, failure: TransportError(.other, message: "libcurl could not allocate a handle"))
        }
        transfer.launch { side in
            side.launch(handle: handle, profile: profile, kept: kept?.values ?? .none, of: transfer)
            side.flushQueue = flushQueue
            side.decodeQueue = decodeQueue
            side.admissionKey = key
            side.connectionWait = waited
        }
        do {
            let pool = kept == nil ? pools.pool(for: transfer.request.options) : nil
            try transfer.configure(receiveBufferSize: configuration.receiveBufferSize, pool: pool, last: last)
            let (url, list) = transfer.withEngine { ($0.parsedURL, $0.headerList) }
            if last.url !== url || last.headerList !== list { last = KeptRequestValues(url: url, headerList: list) }
        } catch {
            handle.destroy()
            if let key { admission.uncount(key) }
            return deliver(transfer, failure: error)
        }
        transfer.shortenTimeoutByConnectionWait()
        let added = curl_multi_add_handle(multi, handle.raw)
        guard added == CURLM_OK else {
            handle.destroy()
            if let key { admission.uncount(key) }
            let message = String(cString: curl_multi_strerror(added))
            return deliver(transfer, failure: TransportError(.other, message: "libcurl refused the transfer: \(message)"))
        }
        transfer.engine.slot = running.count
        running.append(transfer)
    }
}
