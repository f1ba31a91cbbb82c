import BrickTransport
import FoundationEssentials

/// What a transfer's caller and its engine hand each other, behind the transfer's lock: how it was started,
/// whether it is over, and either the waiting collector or a stream's queue of events with its waiting
/// consumer and the engine's pause.
struct SharedState {
    var mode: CurlTransfer.Mode?
    var finished = false
    var cancelled = false
    // collect
    var responseWaiter: UnsafeContinuation<CurlTransfer.Outcome, Never>?
    // stream
    var events: [TransportEvent] = []
    var queuedBytes = 0
    var pausedByEngine = false
    var eventWaiter: UnsafeContinuation<CurlTransfer.EventOutcome, Never>?
    var failure: TransportError?
    var ended = false
}

extension SharedState {
    /// Queues body bytes: added to the body chunk the consumer has not read yet, when there is one (only
    /// progress reports after it), so that a consumer behind by several of libcurl's writes (16 KiB each,
    /// whatever the receive buffer) takes them as one chunk rather than one event each.
    mutating func appendBody(_ bytes: UnsafeRawBufferPointer) {
        var index = events.count - 1
        while index >= 0, events[index].isProgress { index -= 1 }
        guard index >= 0, case .body(var chunk) = events[index] else {
            events.append(.body(Data(bytes)))
            return
        }
        events[index] = .end(TransferMetrics())  // a placeholder, so that `chunk` holds the only reference
        chunk.append(bytes.assumingMemoryBound(to: UInt8.self))
        events[index] = .body(chunk)
    }

    /// Takes what the consumer reads next: the first event, else the failure, else the end; `nil` when
    /// there is nothing yet. Also says whether the engine should unpause a transfer now that the queue
    /// has drained below half of `bufferSize`.
    mutating func takeReady(bufferSize: Int) -> (CurlTransfer.EventOutcome?, resumeEngine: Bool) {
        if !events.isEmpty {
            let event = events.removeFirst()  // a short queue: the buffer cap bounds it
            var resumeEngine = false
            if case .body(let chunk) = event {
                queuedBytes -= chunk.count
                if pausedByEngine && queuedBytes <= bufferSize / 2 {
                    pausedByEngine = false
                    resumeEngine = true
                }
            }
            return (.success(event), resumeEngine)
        }
        if let failure { return (.failure(failure), false) }
        if ended { return (.success(nil), false) }
        return (nil, false)
    }
}

extension TransportEvent {
    /// Whether this is a progress report.
    var isProgress: Bool {
        switch self {
        case .uploadProgress, .downloadProgress: true
        default: false
        }
    }

    /// Whether both are progress reports of the same direction.
    func isProgress(like other: TransportEvent) -> Bool {
        switch (self, other) {
        case (.uploadProgress, .uploadProgress), (.downloadProgress, .downloadProgress): true
        default: false
        }
    }
}
