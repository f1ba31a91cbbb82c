import BrickSystem
import BrickTransport
import CCurl
import CCurlShim

/// How the engine loop ends a transfer libcurl finished, lets a paused one go on, and takes one out of the
/// multi handle.
extension EngineLoop {
    func finish(_ raw: UnsafeMutableRawPointer, _ code: CURLcode) {
        var context: UnsafeMutableRawPointer?
        guard brick_easy_getinfo_pointer(raw, CURLINFO_PRIVATE, &context) == CURLE_OK,
            let transfer = EasyHandle.transfer(at: context)?.takeUnretainedValue()
        else { return finishLink(raw, code) }
        // Alive: a handle leaves the multi handle (which also drops its pending message) before its
        // transfer leaves `running`.
        if code == CURLE_OK {
            let metrics = transfer.readMetrics()
            let head = transfer.head
            let mode = transfer.withEngine { $0.mode }
            if mode == .stream {
                transfer.deliverHeadIfNeeded()
                transfer.reportFinalProgress()
            }
            let progress = transfer.decodingWaits ? transfer.decodePending() : .done
            remove(transfer, keepingHandle: mode == .collect && progress != .failed)
            switch progress {
            case .done: transfer.end(head: head, metrics: metrics)
            case .waiting, .yielded: draining[ObjectIdentifier(transfer)] = Draining(transfer: transfer, head: head, metrics: metrics)
            case .failed: deliver(transfer, failure: transfer.decodingError)
            }
        } else if transfer.withEngine({ $0.decodingFailure != nil }) {
            remove(transfer)
            deliver(transfer, failure: transfer.decodingError)
        } else if let failure = transfer.withEngine({ $0.upload?.failure }) {
            remove(transfer)
            deliver(transfer, failure: failure)
        } else {
            transfer.withEngine { $0.noteFailure(code) }
            let error = CurlErrorMapping.error(
                code: Int(code.rawValue), message: transfer.failureMessage(code), context: transfer.readFailureContext())
            remove(transfer)
            deliver(transfer, failure: error)
        }
    }

    /// Lets a paused transfer go on once its consumer made room: decoded body that waited is handed on
    /// first, and receiving resumes only when none is left (sending resumes either way).
    func resume(_ transfer: CurlTransfer) {
        let handle = transfer.engine.handle.raw
        if transfer.decodingWaits {
            switch transfer.decodePending() {
            case .failed:
                remove(transfer)
                return deliver(transfer, failure: transfer.decodingError)
            case .waiting, .yielded:
                _ = curl_easy_pause(handle, CURLPAUSE_RECV)
                return
            case .done: break
            }
        }
        _ = curl_easy_pause(handle, CURLPAUSE_RECV_CONT | CURLPAUSE_SEND_CONT)
    }

    /// Hands on more of a draining transfer's decoded body, and its end once none is left; one past its
    /// deadline fails as timed out.
    func drain(_ id: ObjectIdentifier) {
        guard let ending = draining[id] else { return }
        let transfer = ending.transfer
        if ending.isPastDeadline {
            draining[id] = nil
            return deliver(transfer, failure: TransportError(.timedOut, message: "the body took longer than the request's timeout to decode"))
        }
        switch transfer.decodePending() {
        case .waiting, .yielded: return
        case .done: transfer.end(head: ending.head, metrics: ending.metrics)
        case .failed: deliver(transfer, failure: transfer.decodingError)
        }
        draining[id] = nil
    }

    /// Goes on decoding the transfers whose last pass did its share of work: in the multi handle, as when
    /// their consumer makes room (receiving resumes once nothing waits); out of it, as a draining one.
    func continueDecoding() {
        guard !decodeQueue.isEmpty else { return }
        for transfer in decodeQueue.take() {
            if isRunning(transfer) {
                resume(transfer)
            } else if draining[ObjectIdentifier(transfer)] != nil {
                drain(ObjectIdentifier(transfer))
            }
        }
    }

    /// Takes the transfer out of the multi handle (no callback fires after this). Its handle is kept for
    /// the next transfer of its profile only after a collected transfer that ended well (``IdleHandles``
    /// still refuses one that read its body through the read callback, which may have paused); any other is
    /// freed. Connections stay in the multi handle's pool either way.
    func remove(_ transfer: CurlTransfer, keepingHandle: Bool = false) {
        let handle = transfer.engine.handle
        _ = curl_multi_remove_handle(multi, handle.raw)
        transfer.engine.parser.releaseRoom()  // the handle's room serves its next transfer, or is freed
        let slot = transfer.engine.slot
        let last = running.removeLast()
        if last !== transfer {
            running[slot] = last
            last.engine.slot = slot
        }
        transfer.engine.slot = -1
        if keepingHandle {
            transfer.restoreStandingTimeout()
            if let profile = transfer.engine.profile.take() {  // moved: the transfer is done with it
                let values = transfer.withEngine { KeptRequestValues(url: $0.parsedURL, headerList: $0.headerList) }
                idleHandles.keep(handle, profile: profile, values: values)
            } else {
                handle.destroy()
            }
        } else {
            handle.destroy()
        }
        // The handle no longer points at the parsed URL and header list (freed, or kept with them): the
        // transfer, which lives on with its caller, lets them go, so that they are held per handle and not
        // per request.
        transfer.withEngine { side in
            side.parsedURL = nil
            side.headerList = nil
            side.keptValues = .none
        }
        if admission.counting, let key = transfer.engine.admissionKey { released(key) }
    }
}
