import FoundationEssentials
import Testing

@testable import BrickWebSocket

/// The frame layer alone, on bytes: what a server may not send is refused before anything is buffered.
struct FrameTests {
    /// A server frame (unmasked) with `first` and the payload.
    func serverFrame(_ first: UInt8, _ payload: [UInt8]) -> Data {
        var bytes: [UInt8] = [first]
        if payload.count < 126 {
            bytes.append(UInt8(payload.count))
        } else {
            bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        return Data(bytes + payload)
    }

    @Test func aFrameSplitAnywhereComesOutWhole() throws {
        let frame = serverFrame(0x81, Array("hello, world".utf8)) + serverFrame(0x82, [UInt8](repeating: 7, count: 300))
        for cut in 0...frame.count {
            var reader = FrameReader(maxFrameSize: 1024, allowsCompression: false)
            var frames: [Frame] = []
            reader.append(frame.prefix(cut))
            while let next = try reader.next() { frames.append(next) }
            reader.append(frame.dropFirst(cut))
            while let next = try reader.next() { frames.append(next) }
            #expect(frames.map(\.opcode) == [.text, .binary])
            #expect(frames.map(\.payload.count) == [12, 300])
        }
    }

    @Test func whatAServerMayNotSendIsRefused() {
        let refused: [(String, Data)] = [
            ("masked", Data([0x81, 0x81, 1, 2, 3, 4, 0x41])),
            ("RSV2", Data([0xA1, 0x00])),
            ("RSV1 without compression", Data([0xC1, 0x00])),
            ("reserved opcode 3", Data([0x83, 0x00])),
            ("reserved control opcode 0xB", Data([0x8B, 0x00])),
            ("fragmented ping", Data([0x09, 0x00])),
            ("ping of 126 bytes", Data([0x89, 126, 0, 126]) + Data(count: 126)),
            ("64-bit length with its high bit", Data([0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 1])),
        ]
        for (name, bytes) in refused {
            var reader = FrameReader(maxFrameSize: 1 << 20, allowsCompression: false)
            reader.append(bytes)
            #expect(throws: WebSocketError.self, "\(name)") { try reader.next() }
        }
    }

    @Test func aFrameOverTheLimitIsRefusedFromItsHeaderAlone() throws {
        var reader = FrameReader(maxFrameSize: 1024, allowsCompression: false)
        // A 1 GiB frame announced: refused with only its ten header bytes read.
        reader.append(Data([0x82, 127, 0, 0, 0, 0, 0x40, 0, 0, 0]))
        let error = try #require(throws: WebSocketError.self) { try reader.next() }
        #expect(error.kind == .tooBig)
        #expect(error.closeCode == 1009)
    }

    @Test func maskingIsItsOwnInverse() {
        let payload = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let encoded = Frame(opcode: .binary, payload: payload).encoded(maskedWith: 0xDEAD_BEEF)
        #expect(encoded[1] == 0x80 | 126)
        let key = Array(encoded[4..<8])
        var unmasked = Data(encoded.dropFirst(8))
        unmasked.withUnsafeMutableBytes { Masking.apply(key, to: $0) }
        #expect(unmasked == payload)
        #expect(Data(encoded.dropFirst(8)) != payload)
    }

    @Test func textIsCheckedAsItArrives() {
        let good = Array("κόσμε 𝄞 ok".utf8)
        for cut in 0...good.count {
            var validator = UTF8Validator()
            let first = validator.feed(Data(good[..<cut]))
            let second = validator.feed(Data(good[cut...]))
            #expect(first && second && validator.isAtBoundary)
        }
        let bad: [[UInt8]] = [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xFF], [0xE0, 0x80, 0x80]]
        for bytes in bad {
            var validator = UTF8Validator()
            let accepted = validator.feed(Data(bytes))
            #expect(!accepted, "\(bytes)")
        }
        var open = UTF8Validator()
        let accepted = open.feed(Data([0xE2, 0x82]))
        #expect(accepted && !open.isAtBoundary)
    }

    @Test func closeCodesAndReasonsAreChecked() throws {
        #expect(try WebSocketCore.parseClose(Data()).code == 1005)
        #expect(try WebSocketCore.parseClose(Data([0x03, 0xE8]) + Data("bye".utf8)) == WebSocketClose(code: 1000, reason: "bye"))
        #expect(try WebSocketCore.parseClose(Data([0x0F, 0xA0])).code == 4000)
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 2000, 2999, 5000] {
            #expect(throws: WebSocketError.self, "\(code)") { try WebSocketCore.parseClose(Data([UInt8(code >> 8), UInt8(code & 0xFF)])) }
        }
        #expect(throws: WebSocketError.self) { try WebSocketCore.parseClose(Data([0x03])) }
        let notText = try #require(throws: WebSocketError.self) { try WebSocketCore.parseClose(Data([0x03, 0xE8, 0xFF])) }
        #expect(notText.closeCode == 1007)
    }
}
