import BrickSystem
import BrickTransport

/// The entries a recording gathers, redacted as they come, in the order their attempts started; the secret
/// values each redaction found are scrubbed from every entry when the entries are read, so that a value
/// learned in one (a token an answer handed out) is gone from the others too (the request that sent it next).
final class Recorder: Sendable {
    private let state = Locked<(entries: [(started: UInt64, entry: HAR.Entry)], secrets: SecretValues)>(([], SecretValues()))
    let redaction: CassetteRedaction
    /// Bodies over this many bytes are left out of their entries.
    let bodyLimit: Int

    init(redaction: CassetteRedaction, bodyLimit: Int) {
        self.redaction = redaction
        self.bodyLimit = bodyLimit
    }

    /// Adds the entry of `exchange`; a cancelled attempt (which neither answered nor failed on its own) adds none.
    func add(_ exchange: Exchange) {
        if exchange.error?.kind == .cancelled { return }
        var noted = SecretValues()
        let entry = HAR.Entry(exchange).redacted(by: redaction, noting: &noted)
        state.withLock { state in
            state.entries.append((exchange.startedNanoseconds, entry))
            state.secrets.merge(noted)
        }
    }

    /// The entries so far, in the order their attempts started, each scrubbed of every secret value found in
    /// any of them.
    var recorded: [HAR.Entry] {
        let (entries, secrets) = state.withLock { ($0.entries, $0.secrets) }
        let scrubber = Scrubber(secrets)
        return entries.enumerated().sorted { ($0.element.started, $0.offset) < ($1.element.started, $1.offset) }
            .map { redaction.isNone ? $0.element.entry : $0.element.entry.scrubbed(by: scrubber) }
    }
}

/// A transport that sends every request through `live` and records each attempt, redirect hop and stream
/// into its cassette.
final class RecordingTransport: Transport {
    let live: any Transport
    let recorder: Recorder

    init(live: any Transport, recorder: Recorder) {
        self.live = live
        self.recorder = recorder
    }

    func makeTransfer(for request: TransportRequest) -> any TransportTransfer {
        RecordingTransfer(live.makeTransfer(for: request), request: request, recorder: recorder)
    }

    func shutdown() async { await live.shutdown() }
}

/// One live transfer, recorded: collected or streamed (the stream's events pass through as they come).
final class RecordingTransfer: TransportTransfer, TransportEventSource {
    private let live: any TransportTransfer
    private let recorder: Recorder
    private let exchange: Locked<Exchange>
    private let stream = Locked<TransportEventStream?>(nil)

    init(_ live: any TransportTransfer, request: TransportRequest, recorder: Recorder) {
        self.live = live
        self.recorder = recorder
        exchange = Locked(Exchange(request: request, bodyLimit: recorder.bodyLimit))
    }

    func response() async throws(TransportError) -> TransportResponse {
        do {
            let response = try await live.response()
            finish { exchange in
                exchange.head = response.head
                exchange.append(response.body, limit: recorder.bodyLimit)
                exchange.contentDecoded = response.contentDecoded
                exchange.metrics = response.metrics
            }
            return response
        } catch {
            finish { $0.error = error }
            throw error
        }
    }

    func events() -> TransportEventStream {
        let events = live.events()
        stream.withLock { $0 = events }
        return TransportEventStream(source: self)
    }

    func nextEvent() async throws(TransportError) -> TransportEvent? {
        guard let events = stream.withLock({ $0 }) else { return nil }
        do {
            let event = try await events.nextEvent()
            switch event {
            case .head(let head)?: exchange.withLock { $0.head = head }
            case .body(let piece)?: exchange.withLock { $0.append(piece, limit: recorder.bodyLimit) }
            case .end(let metrics)?:
                finish { exchange in
                    exchange.metrics = metrics
                    // A stream's body comes decoded when the head names codings (the transport decodes it).
                    exchange.contentDecoded = exchange.head?.headers["Content-Encoding"] != nil
                }
            default: break
            }
            return event
        } catch {
            finish { $0.error = error }
            throw error
        }
    }

    func cancel(because reason: TransportError) { live.cancel(because: reason) }

    /// Completes the exchange with `change` and hands it to the recorder.
    private func finish(_ change: (inout Exchange) -> Void) {
        let done = exchange.withLock { exchange -> Exchange in
            change(&exchange)
            return exchange
        }
        recorder.add(done)
    }
}
