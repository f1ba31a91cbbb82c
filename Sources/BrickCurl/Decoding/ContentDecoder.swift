import BrickTransport
import CContentCoding
import FoundationEssentials

/// Decodes a response body's content codings (`Content-Encoding`: gzip, deflate, br, zstd, and chains of
/// them), step by step, so that the engine decodes only as much as its consumer has room for: what waits
/// for a slow consumer is the compressed bytes, never their expansion. Engine thread only.
///
/// A coding it does not know leaves the body as it came (with its `Content-Encoding` for the caller to see).
///
/// A server cannot make it do unbounded work in one go: each call does at most a given amount (bytes read
/// and written over every layer, ``decode(atMost:budget:)``), and every layer's output is counted
/// (``mostProducedByALayer``), so that the engine's checks of the ratio and the cap see a bomb hidden in an
/// inner layer, whose output the next layer swallows. Bytes after the end of an inner coding are damage.
final class ContentDecoder {
    /// One coding the decoder knows.
    enum Coding { case gzip, deflate, brotli, zstd }

    /// What a request asks for: every coding the decoder knows.
    static let acceptEncodingField = "Accept-Encoding: deflate, gzip, br, zstd"

    /// The most bytes one decoding step produces.
    static let step = 64 << 10

    /// The most codings decoded; a body in more is handed over as it came.
    static let maxCodings = 4

    /// The codings of a response's `Content-Encoding` fields (several fields form one list, RFC 9110 §5.3),
    /// in the order they were applied, when every one is known (`identity` skipped); `nil` when there is
    /// none, one is unknown or there are more than ``maxCodings``: the body is then handed over as it came.
    static func codings(_ values: [String]) -> [Coding]? {
        var codings: [Coding] = []
        for name in values.lazy.flatMap({ $0.split(separator: ",") }) {
            switch name.filter({ $0 != " " && $0 != "\t" }).lowercased() {
            case "gzip", "x-gzip": codings.append(.gzip)
            case "deflate": codings.append(.deflate)
            case "br": codings.append(.brotli)
            case "zstd": codings.append(.zstd)
            case "identity", "": continue
            default: return nil
            }
        }
        return codings.isEmpty || codings.count > maxCodings ? nil : codings
    }

    /// What one call to ``decode(atMost:budget:)`` made.
    enum Step {
        /// Decoded body.
        case body(Data)
        /// Nothing more until more bytes arrive.
        case needsInput
        /// The call's budget is spent with input still to decode: call again later.
        case yielded
    }

    /// The layers, the last coding applied first: layer 0 reads the bytes that arrived.
    private let layers: [any Codec]
    /// Each layer's input not decoded yet, how far it was read, and whether its last step filled its
    /// output (so that it may hold more output even with no input left).
    private var inputs: [[UInt8]]
    private var offsets: [Int]
    private var full: [Bool]
    /// What each layer produced so far.
    private var produced: [Int]

    init?(_ codings: [Coding]) {
        var layers: [any Codec] = []
        for (index, coding) in codings.reversed().enumerated() {
            // Layer 0 reads the bytes that arrived: what follows its end is ignored, as curl does. An inner
            // layer reads what another decoded, so bytes after its end were put there on purpose: damage.
            guard let codec = Self.codec(coding, strictEnd: index > 0) else { return nil }
            layers.append(codec)
        }
        self.layers = layers
        inputs = Array(repeating: [], count: layers.count)
        offsets = Array(repeating: 0, count: layers.count)
        full = Array(repeating: false, count: layers.count)
        produced = Array(repeating: 0, count: layers.count)
    }

    private static func codec(_ coding: Coding, strictEnd: Bool) -> (any Codec)? {
        switch coding {
        case .gzip: Inflater(format: .gzip, strictEnd: strictEnd)
        case .deflate: Inflater(format: .zlib, strictEnd: strictEnd)
        case .brotli: BrotliCodec(strictEnd: strictEnd)
        case .zstd: ZstdCodec()
        }
    }

    /// The most bytes one layer produced so far: the body for a single coding, and for a chain whichever
    /// layer grew most (an inner bomb whose output the next layer swallows counts here).
    var mostProducedByALayer: Int { produced.max() ?? 0 }

    /// Whether bytes that arrived may still give body: input not decoded yet, or output a layer still holds.
    var hasPendingInput: Bool { layers.indices.contains { offsets[$0] < inputs[$0].count || full[$0] } }

    /// Takes bytes that arrived; ``decode(atMost:budget:)`` turns them into body.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        if offsets[0] == inputs[0].count {
            inputs[0].removeAll(keepingCapacity: true)
            offsets[0] = 0
        }
        inputs[0].append(contentsOf: bytes)
    }

    /// Up to `limit` bytes of decoded body, doing at most about `budget` bytes of work (read and written,
    /// over every layer; what is done is taken off it).
    /// - Throws: ``TransportError`` (`invalidResponse`) when the body is not valid in its coding.
    func decode(atMost limit: Int, budget: inout Int) throws(TransportError) -> Step {
        try produce(layers.count - 1, limit: max(1, limit), budget: &budget)
    }

    private func produce(_ layer: Int, limit: Int, budget: inout Int) throws(TransportError) -> Step {
        var output = Data(count: limit)
        while true {
            guard budget > 0 else { return .yielded }
            if offsets[layer] == inputs[layer].count && !full[layer] {
                guard layer > 0 else { return .needsInput }
                switch try produce(layer - 1, limit: Self.step, budget: &budget) {
                case .body(let more):
                    inputs[layer] = Array(more)
                    offsets[layer] = 0
                case let other: return other
                }
            }
            let offset = offsets[layer]
            let codec = layers[layer]
            let step: Result<(Int, Int), TransportError> = inputs[layer].withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in
                    Result { () throws(TransportError) in try codec.run(UnsafeRawBufferPointer(rebasing: input[offset...]), into: out) }
                }
            }
            let (consumed, made) = try step.get()
            offsets[layer] += consumed
            full[layer] = made == limit
            produced[layer] += made
            budget -= consumed + made + 1
            if made > 0 {
                output.count = made
                return .body(output)
            }
            if consumed == 0 { offsets[layer] = inputs[layer].count }  // a coding past its end takes nothing more
        }
    }
}

/// One coding's decoder.
protocol Codec: AnyObject {
    /// Decodes from `input` into `output`; returns how much of each was used. Input after the coding's end
    /// is used up without output.
    func run(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(TransportError) -> (Int, Int)
}

extension TransportError {
    /// A body that is not valid in its coding (`after`: bytes follow the end of an inner coding).
    static func damaged(_ coding: String, after: Bool = false) -> TransportError {
        TransportError(
            .invalidResponse,
            message: after ? "bytes follow the end of the body's inner \(coding) coding (its Content-Encoding)"
                : "the body is not valid \(coding) (its Content-Encoding)")
    }
}

/// zlib's inflater, for gzip (members one after another) and deflate (zlib's format, or raw deflate as
/// some servers send it).
final class Inflater: Codec {
    enum Format { case gzip, zlib }
    private var stream: UnsafeMutablePointer<z_stream>
    private let format: Format
    private var producedAny = false
    private var raw = false
    private var ended = false
    /// Whether a gzip member ended before this one: what follows may be trailing bytes, not a member.
    private var afterAMember = false
    /// Whether the rest is ignored: the coding ended, and what follows is not another gzip member.
    private var ignoringRest = false
    /// Whether bytes after the coding's end are damage rather than ignored (an inner layer of a chain).
    private let strictEnd: Bool

    init?(format: Format, strictEnd: Bool) {
        guard let stream = brick_inflate_new(format == .gzip ? 15 + 16 : 15) else { return nil }
        self.stream = stream
        self.format = format
        self.strictEnd = strictEnd
    }

    private var name: String { format == .gzip ? "gzip" : "deflate" }

    deinit { brick_inflate_free(stream) }

    func run(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(TransportError) -> (Int, Int) {
        if ignoringRest { return (input.count, 0) }
        if ended {
            // After a gzip member, another may follow; anything else after the end is ignored, as curl does
            // (or damage, in an inner layer).
            if strictEnd && !input.isEmpty && format != .gzip { throw .damaged(name, after: true) }
            guard format == .gzip, !input.isEmpty, brick_inflate_reset(stream) == Z_OK else { return (input.count, 0) }
            ended = false
            afterAMember = true
        }
        var consumed = 0, produced = 0
        let code = brick_inflate(
            stream, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count, &consumed,
            output.baseAddress!.assumingMemoryBound(to: UInt8.self), output.count, &produced)
        switch code {
        case Z_OK, Z_BUF_ERROR: break
        case Z_STREAM_END: ended = true
        case Z_DATA_ERROR where format == .zlib && !raw && !producedAny:
            // `deflate` without zlib's header: start again as raw deflate.
            guard let rawStream = brick_inflate_new(-15) else { throw .damaged("deflate") }
            brick_inflate_free(stream)
            stream = rawStream
            raw = true
            return try run(input, into: output)
        case Z_DATA_ERROR where afterAMember && stream.pointee.total_out == 0:
            if strictEnd { throw .damaged(name, after: true) }
            ignoringRest = true
            return (input.count, 0)
        default: throw .damaged(name)
        }
        if produced > 0 { producedAny = true }
        return (consumed, produced)
    }
}

/// Brotli's decoder (`br`), its window at most 16 MiB (the format's own limit without large windows).
final class BrotliCodec: Codec {
    private let state: OpaquePointer
    private var ended = false
    /// Whether bytes after the coding's end are damage rather than ignored (an inner layer of a chain).
    private let strictEnd: Bool

    init?(strictEnd: Bool) {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { return nil }
        self.state = state
        self.strictEnd = strictEnd
    }

    deinit { BrotliDecoderDestroyInstance(state) }

    func run(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(TransportError) -> (Int, Int) {
        if ended {
            if strictEnd && !input.isEmpty { throw .damaged("brotli", after: true) }
            return (input.count, 0)
        }
        var empty: UInt8 = 0
        return try withUnsafePointer(to: &empty) { placeholder throws(TransportError) in
            var availableIn = input.count
            var nextIn: UnsafePointer<UInt8>? = input.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? placeholder
            var availableOut = output.count
            var nextOut: UnsafeMutablePointer<UInt8>? = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
            switch BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil) {
            case BROTLI_DECODER_RESULT_ERROR: throw .damaged("brotli")
            case BROTLI_DECODER_RESULT_SUCCESS: ended = true
            default: break
            }
            return (input.count - availableIn, output.count - availableOut)
        }
    }
}

/// Zstandard's decoder (`zstd`), its window at most 8 MiB (RFC 9659's limit for HTTP), frames one after another.
final class ZstdCodec: Codec {
    private let stream: OpaquePointer

    init?() {
        guard let stream = ZSTD_createDStream() else { return nil }
        guard ZSTD_isError(ZSTD_DCtx_setParameter(stream, ZSTD_d_windowLogMax, 23)) == 0 else {
            ZSTD_freeDStream(stream)
            return nil
        }
        self.stream = stream
    }

    deinit { ZSTD_freeDStream(stream) }

    func run(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(TransportError) -> (Int, Int) {
        var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var target = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        guard ZSTD_isError(ZSTD_decompressStream(stream, &target, &source)) == 0 else { throw .damaged("zstd") }
        return (source.pos, target.pos)
    }
}
