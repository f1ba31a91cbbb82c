import BrickTransport
import CCurl

/// How the engine loop ends: every transfer it holds or queues is told that the transport shut down, and
/// libcurl's handles are freed.
extension EngineLoop {
    func deliver(_ transfer: CurlTransfer, failure: TransportError) {
        switch transfer.mode {
        case .collect: transfer.complete(.failure(failure))
        case .stream: transfer.fail(failure)
        }
    }

    /// Frees the multi handle of a loop that never ran (no thread could be started for it), on the thread
    /// that tried to start it: no transfer was launched, so no engine side is touched.
    func abandon() {
        thread.enter()
        shutdown()
    }

    func shutdown() {
        let failure = TransportError(.cancelled, message: "the transport has shut down")
        for command in mailbox.close() {
            switch command {
            case .start(let transfer): deliver(transfer, failure: failure)
            case .link(let link, _): link.end(with: failure)
            default: break
            }
        }
        while let link = links.last {
            link.end(with: failure)
            take(link)
        }
        for transfer in admission.drain() { deliver(transfer, failure: failure) }
        while let transfer = running.last {
            remove(transfer)
            deliver(transfer, failure: failure)
        }
        for ending in draining.values { deliver(ending.transfer, failure: failure) }
        draining.removeAll()
        idleHandles.drain()
        curl_multi_cleanup(multi)
        linkScratchStorage?.deallocate()
        pools.drain()
        stopped.signal()
    }
}
