import CContentCoding
import FoundationEssentials

/// The server's compressed messages inflated, each bounded by a limit counted as it inflates (a small
/// message that would inflate past it fails with ``WebSocketError/Kind/tooBig``, having allocated no more
/// than the limit). Owned by the one task that reads the connection.
final class MessageInflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private let resetsEachMessage: Bool
    private static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    init?(_ parameters: DeflateParameters) {
        // Inflating with the largest window reads whatever window the server used.
        guard let stream = brick_inflate_new(-15) else { return nil }
        self.stream = stream
        resetsEachMessage = parameters.serverNoContextTakeover
    }

    deinit { brick_inflate_free(stream) }

    /// The message `compressed` (without the four bytes a sync flush ends with, RFC 7692 §7.2.2) inflated.
    func inflate(_ compressed: Data, limit: Int) throws(WebSocketError) -> Data {
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        for piece in [compressed, Data(Self.tail)] {
            var offset = 0
            while true {
                var consumed = 0, produced = 0
                let code = piece.withUnsafeBytes { input in
                    chunk.withUnsafeMutableBufferPointer { out in
                        brick_inflate(
                            stream, input.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) + offset }, input.count - offset, &consumed,
                            out.baseAddress!, out.count, &produced)
                    }
                }
                offset += consumed
                if produced > 0 {
                    guard output.count + produced <= limit else {
                        throw .tooBig("a compressed message inflates past the limit of \(limit) bytes (WebSocketOptions.maxMessageSize)")
                    }
                    output.append(contentsOf: chunk[0..<produced])
                }
                if code == Z_STREAM_END || code == Z_BUF_ERROR || (offset >= piece.count && produced < chunk.count) { break }
                guard code == Z_OK else { throw .protocolViolation("a compressed message is not valid deflate data (zlib \(code))") }
            }
        }
        if resetsEachMessage { _ = brick_inflate_reset(stream) }
        return output
    }
}

/// The client's messages deflated: a sync flush per message with its four final bytes taken off (RFC 7692
/// §7.2.1), the context dropped after each (the offer says so), in the window the server allowed.
final class MessageDeflater {
    private let stream: UnsafeMutablePointer<z_stream>

    /// `nil` when the server limited the client to a window of 256 bytes, which zlib cannot deflate into:
    /// the client's messages then go uncompressed, as RFC 7692 allows per message.
    init?(_ parameters: DeflateParameters) {
        guard parameters.clientMaxWindowBits >= 9, let stream = brick_deflate_new(-Int32(parameters.clientMaxWindowBits), 6) else { return nil }
        self.stream = stream
    }

    deinit { brick_deflate_free(stream) }

    func deflate(_ message: Data) -> Data {
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: max(1024, min(message.count + 64, 256 * 1024)))
        var offset = 0
        while true {
            var consumed = 0, produced = 0
            let code = message.withUnsafeBytes { input in
                chunk.withUnsafeMutableBufferPointer { out in
                    brick_deflate(
                        stream, input.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) + offset }, input.count - offset, &consumed,
                        out.baseAddress!, out.count, &produced, Z_SYNC_FLUSH)
                }
            }
            offset += consumed
            output.append(contentsOf: chunk[0..<produced])
            // A sync flush is complete when deflate left room in the output (zlib.h).
            if produced < chunk.count || code != Z_OK { break }
        }
        if output.count >= 4, output.suffix(4).elementsEqual([0x00, 0x00, 0xFF, 0xFF]) { output.removeLast(4) }
        _ = brick_deflate_reset(stream)
        return output
    }
}
