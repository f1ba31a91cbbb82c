import BrickTransport
import FoundationEssentials

/// The engine thread's part of a transfer (``CurlTransfer/engine``): the easy handle, how the transfer reads
/// its response, the head being parsed, the collected body, the decoder, and what the engine noted on the
/// way. Filled in by the engine when it launches the transfer; never touched by another thread.
struct EngineSide {
    /// The engine thread's identity (``currentThreadID()``), once the engine launched the transfer: the
    /// fields below hold their values only then. Zero before: no thread has it.
    var engineThread: UInt = 0
    var handle = EasyHandle.unset
    /// How the response is read, fixed when the transfer was launched.
    var mode = CurlTransfer.Mode.collect
    /// What the handle's standing options were set for: the handle may serve the next transfer that has it.
    var profile: HandleProfile?
    /// What a kept handle's last request left set on it; ``KeptRequestValues/none`` for a new handle.
    var keptValues = KeptRequestValues.none
    /// Where accepted chunks are announced, so that the consumer is woken after the engine's pass, and
    /// where a transfer whose decoding did its share of work waits for the engine's next turn.
    var flushQueue: FlushQueue?
    var decodeQueue: DecodeQueue?
    /// Whether the request sends a body, so that upload progress means something.
    var hasUpload = false
    /// The request's caps, read once from its options.
    var maxBodySize = 0
    var maxHeaderSize = 0

    /// Where the transfer sits in the engine's list of running transfers (``EngineLoop/running``); -1 when
    /// it is not running there.
    var slot = -1
    var flushScheduled = false
    var decodeScheduled = false
    /// The URL, parsed, and the header list libcurl sends for this transfer (perhaps the handle's last ones,
    /// used again).
    var parsedURL: ParsedURL?
    var headerList: HeaderList?
    /// The body when it is sent through the read callback (files, streams, several parts).
    var upload: UploadSource?
    var parser = HeadParser()
    var headDelivered = false
    var body = Data()
    var exceededCap = false
    /// Whether the decompressed body outgrew ``TransportOptions/maxDecompressionRatio``.
    var inflatedPastRatio = false
    /// The decoder of the body's content codings, once the first body bytes showed there is one to decode
    /// (``decoderChosen``); `nil` for a body handed over as it came.
    var decoder: ContentDecoder?
    var decoderChosen = false
    /// Why decoding the body failed (it is not valid in its coding).
    var decodingFailure: TransportError?
    /// Body bytes that arrived, and what decoding made of them.
    var wireBytes = 0
    var decodedBytes = 0
    /// Whether the response head passed ``TransportOptions/maxHeaderSize`` (or libcurl's limit for one
    /// field), so that it was refused.
    var headTooLarge = false
    /// How many times libcurl was about to send the request (its pre-request callback).
    var sendCount = 0
    /// Whether libcurl was stopped from sending the request a second time on a fresh connection.
    var refusedResend = false
    /// The counts last reported to a streaming consumer (`-1`: none yet).
    var reportedUpload: Int64 = -1
    var reportedDownload: Int64 = -1
    /// The host this transfer counts against while the engine counts them (``Admission``); `nil` when it
    /// started while nothing was counted.
    var admissionKey: AdmissionKey?
    /// How long the transfer waited for a free connection before it was handed to libcurl, in nanoseconds.
    var connectionWait: UInt64 = 0

    /// Fills in what the engine chose when it launched the transfer.
    mutating func launch(handle: EasyHandle, profile: HandleProfile, kept: KeptRequestValues, of transfer: CurlTransfer) {
        self.handle = handle
        parser.lend(handle.headLines)
        mode = profile.mode
        self.profile = profile
        keptValues = kept
        hasUpload = transfer.request.body != nil && transfer.request.method != .head
        let options = transfer.request.options
        maxBodySize = options.maxBodySize
        maxHeaderSize = options.maxHeaderSize
    }

    /// Whether libcurl began sending the request at least once (its pre-request callback ran).
    var requestWentOut: Bool { sendCount > 0 }
}
