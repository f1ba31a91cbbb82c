import BrickTransport
import CContentCoding

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
