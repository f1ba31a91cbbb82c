import BrickTransport
import CCurl
import FoundationEssentials

/// A body in a content coding, decoded by the engine itself (libcurl hands the bytes over as they came):
/// all of it for a collected body; for a stream, only while its consumer has room, so that what waits for a
/// slow consumer is at most one of libcurl's writes of compressed bytes, never their expansion.
extension EngineTransfer {
    /// How far decoding got.
    enum DecodingProgress {
        /// Everything that arrived is decoded and handed on.
        case done
        /// The consumer has no room: the rest waits, compressed.
        case waiting
        /// Decoding failed (``decodingError``), or the consumer is gone.
        case failed
    }

    /// Decompressed bytes a body may reach before its ratio to the received bytes is checked.
    static let ratioFloor = 1 << 20

    /// Chooses the decoder from the final head's `Content-Encoding`, when the request asked for compressed
    /// bodies and every coding named is known; otherwise the body is handed over as it came.
    func chooseDecoder() {
        decoderChosen = true
        guard transfer.request.options.automaticDecompression, let codings = ContentDecoder.codings(parser.head?.headers["Content-Encoding"])
        else { return }
        decoder = ContentDecoder(codings)
        if decoder == nil { decodingFailure = TransportError(.other, message: "no memory for the body's decoder") }
    }

    /// libcurl's write callback for a body in a content coding. A stream whose decoder still holds bytes, or
    /// whose consumer is full, pauses the transfer (libcurl keeps this write, compressed).
    func receiveEncoded(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let decoder else { return 0 }
        if mode == .stream {
            deliverHeadIfNeeded()
            if decoder.hasPendingInput {
                switch decodePending() {
                case .failed: return 0
                case .waiting: return Int(CURL_WRITEFUNC_PAUSE)
                case .done: break
                }
            }
            switch transfer.roomForBody() {
            case .finished: return 0
            case .full: return Int(CURL_WRITEFUNC_PAUSE)
            case .room: break
            }
        }
        wireBytes += bytes.count
        decoder.feed(bytes)
        if case .failed = decodePending() { return 0 }
        return bytes.count
    }

    /// Whether decoded bytes wait for the consumer's room.
    var decodingWaits: Bool { decoder?.hasPendingInput ?? false }

    /// Decodes what the decoder holds: all of it for a collected body (within its cap); for a stream, while
    /// its consumer has room.
    func decodePending() -> DecodingProgress {
        guard let decoder else { return .done }
        while true {
            if mode == .stream {
                switch transfer.roomForBody() {
                case .full: return .waiting
                case .finished: return .failed
                case .room: break
                }
            }
            let piece: Data?
            do { piece = try decoder.decode(atMost: ContentDecoder.step) } catch {
                decodingFailure = error
                return .failed
            }
            guard let piece else { return .done }
            decodedBytes += piece.count
            if decodedBytes > Self.ratioFloor, let ratio = transfer.request.options.maxDecompressionRatio,
                decodedBytes / max(ratio, 1) > max(wireBytes, 1)
            {
                inflatedPastRatio = true
                return .failed
            }
            switch mode {
            case .collect:
                guard piece.withUnsafeBytes(take) else { return .failed }
            case .stream:
                guard transfer.acceptBody(piece) else { return .failed }
                flushQueue.schedule(self)
            }
        }
    }

    /// Why decoding ended the transfer.
    var decodingError: TransportError {
        if let decodingFailure { return decodingFailure }
        if inflatedPastRatio {
            return TransportError(
                .responseTooLarge,
                message: "the body decompressed to more than \(transfer.request.options.maxDecompressionRatio ?? 0) times the bytes received")
        }
        if exceededCap { return TransportError(.responseTooLarge, message: "the response body passed \(transfer.request.options.maxBodySize) bytes") }
        return TransportError(.cancelled, message: "the transfer was cancelled")
    }
}
