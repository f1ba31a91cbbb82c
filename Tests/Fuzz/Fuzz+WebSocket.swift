@testable import BrickWebSocket
import Foundation

extension FuzzTarget {
    /// A server's bytes through the frame reader (cut at a point the input's first byte picks), then every
    /// frame's payload through the UTF-8 check and, as one compressed message, through the deflate reader:
    /// no crash, nothing returned past its limit, nothing held past one frame.
    static func webSocket(_ bytes: UnsafeRawBufferPointer) {
        guard let first = bytes.first else { return }
        let input = Data(bytes.dropFirst())
        let cut = Int(first) % (input.count + 1)
        var reader = FrameReader(maxFrameSize: 1024, allowsCompression: first & 1 == 1)
        var frames: [Frame] = []
        for piece in [input.prefix(cut), input.dropFirst(cut)] {
            reader.append(Data(piece))
            while let frame = try? reader.next() {
                precondition(frame.payload.count <= 1024, "a frame past the limit came out")
                precondition(!frame.opcode.isControl || (frame.fin && frame.payload.count <= 125), "a bad control frame came out")
                frames.append(frame)
            }
        }
        var validator = UTF8Validator()
        _ = validator.feed(input)
        if let inflater = MessageInflater(DeflateParameters()), let inflated = try? inflater.inflate(input, limit: 4096) {
            precondition(inflated.count <= 4096, "inflated past the limit")
        }
        _ = try? WebSocketCore.parseClose(input.prefix(125))
    }
}
