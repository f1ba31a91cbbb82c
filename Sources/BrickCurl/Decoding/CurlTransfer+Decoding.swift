import BrickTransport
import CCurl
import FoundationEssentials

/// A body in a content coding, decoded by the engine itself (libcurl hands the bytes over as they came):
/// all of it for a collected body; for a stream, only while its consumer has room, so that what waits for a
/// slow consumer is at most one of libcurl's writes of compressed bytes, never their expansion.
///
/// No callback decodes without end: one pass decodes at most ``workPerPass`` bytes (read and written over
/// every layer); the rest waits, the transfer paused, for the engine's next turn (``DecodeQueue``), so that
/// timeouts fire and other transfers move meanwhile.
extension CurlTransfer {
    /// How far decoding got.
    enum DecodingProgress {
        /// Everything that arrived is decoded and handed on.
        case done
        /// The consumer has no room: the rest waits, compressed.
        case waiting
        /// This pass did its share of work: the engine goes on with it on its next turn.
        case yielded
        /// Decoding failed (``decodingError``), or the consumer is gone.
        case failed
    }

    /// Decompressed bytes a body (or a layer of its codings) may reach before its ratio to the received
    /// bytes is checked.
    static let ratioFloor = 1 << 20

    /// The most work one pass of decoding does: bytes read and written, summed over the layers of codings
    /// (a few milliseconds of zlib).
    static let workPerPass = 4 << 20

    /// Chooses the decoder from the final head's `Content-Encoding`, when the request asked for compressed
    /// bodies and every coding named is known; otherwise the body is handed over as it came.
    ///
    /// The field is read inside ``withEngine(_:)``, not through ``engine``'s accessors: AddressSanitizer caught
    /// a debug build reading the optional head through the read accessor's frame after the access had ended.
    func chooseDecoder() {
        let named: [String]? = withEngine { engine in
            engine.decoderChosen = true
            guard engine.parser.namesContentEncoding, let head = engine.parser.head else { return nil }
            return head.headers.values(for: "Content-Encoding")
        }
        guard request.options.automaticDecompression, let named, let codings = ContentDecoder.codings(named) else { return }
        let decoder = ContentDecoder(codings)
        engine.decoder = decoder
        if decoder == nil { engine.decodingFailure = TransportError(.other, message: "no memory for the body's decoder") }
    }

    /// libcurl's write callback for a body in a content coding. A transfer whose decoder still holds bytes
    /// (its consumer full, or the last pass's work done), or whose stream consumer is full, pauses (libcurl
    /// keeps this write, compressed); so at most one write waits in the decoder beyond what is decoded.
    func receiveEncoded(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let decoder = engine.decoder else { return 0 }
        if engine.mode == .stream { deliverHeadIfNeeded() }
        if decoder.hasPendingInput {
            switch decodePending() {
            case .failed: return 0
            case .waiting, .yielded: return Int(CURL_WRITEFUNC_PAUSE)
            case .done: break
            }
        }
        if engine.mode == .stream {
            switch roomForBody() {
            case .finished: return 0
            case .full: return Int(CURL_WRITEFUNC_PAUSE)
            case .room: break
            }
        }
        engine.wireBytes += bytes.count
        decoder.feed(bytes)
        if case .failed = decodePending() { return 0 }
        return bytes.count
    }

    /// Whether decoded bytes wait for the consumer's room or the engine's next turn.
    var decodingWaits: Bool { withEngine { $0.decoder?.hasPendingInput ?? false } }

    /// Decodes what the decoder holds, for at most ``workPerPass``: all of it for a collected body (within
    /// its cap); for a stream, while its consumer has room. A pass that used up its work puts the transfer
    /// in ``decodeQueue`` for the engine's next turn.
    func decodePending() -> DecodingProgress {
        guard let decoder = engine.decoder else { return .done }
        let mode = engine.mode
        var budget = Self.workPerPass
        while true {
            if mode == .stream {
                switch roomForBody() {
                case .full: return .waiting
                case .finished: return .failed
                case .room: break
                }
            }
            let step: ContentDecoder.Step
            do { step = try decoder.decode(atMost: ContentDecoder.step, budget: &budget) } catch {
                engine.decodingFailure = error
                return .failed
            }
            guard withinLimits(decoder) else { return .failed }
            let piece: Data
            switch step {
            case .needsInput: return .done
            case .yielded:
                scheduleDecoding()
                return .yielded
            case .body(let decoded): piece = decoded
            }
            engine.decodedBytes += piece.count
            switch mode {
            case .collect:
                guard piece.withUnsafeBytes({ engine.take($0) }) else { return .failed }
            case .stream:
                guard acceptBody(piece) else { return .failed }
                scheduleFlush()
            }
        }
    }

    /// Whether every layer of the codings stays within the ratio to the bytes received (and, for a
    /// collected body, within its cap): an inner layer that grows while the next one swallows its output
    /// (bytes after an inner coding's end, empty blocks) is stopped as the body would be.
    private func withinLimits(_ decoder: ContentDecoder) -> Bool {
        let most = decoder.mostProducedByALayer
        if most > Self.ratioFloor, let ratio = request.options.maxDecompressionRatio, most / max(ratio, 1) > max(engine.wireBytes, 1) {
            engine.inflatedPastRatio = true
            return false
        }
        if engine.mode == .collect && most > engine.maxBodySize {
            engine.exceededCap = true
            return false
        }
        return true
    }

    /// Why decoding ended the transfer.
    var decodingError: TransportError {
        if let failure = engine.decodingFailure { return failure }
        if engine.inflatedPastRatio {
            return TransportError(
                .responseTooLarge,
                message: "the body decompressed to more than \(request.options.maxDecompressionRatio ?? 0) times the bytes received")
        }
        if engine.exceededCap { return TransportError(.responseTooLarge, message: "the response body passed \(engine.maxBodySize) bytes") }
        return TransportError(.cancelled, message: "the transfer was cancelled")
    }
}
