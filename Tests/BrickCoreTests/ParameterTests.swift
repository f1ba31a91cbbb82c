@testable import BrickCore
import CPercentEncoding
import FoundationEssentials
import Testing

@Suite struct ParameterTests {
    @Test func percentEncodesReservedCharactersUnicodePlusAndSpace() {
        #expect(PercentEncoding.encode("a b+c&d=e/f?g#h%") == "a%20b%2Bc%26d%3De%2Ff%3Fg%23h%25")
        #expect(PercentEncoding.encode("é✓") == "%C3%A9%E2%9C%93")
        #expect(PercentEncoding.encode("AZaz09-._~") == "AZaz09-._~")
        #expect(PercentEncoding.encode("") == "")
    }

    /// Every scalar up to U+07FF and a few longer ones, alone and inside unreserved text, against the
    /// definition written out byte by byte.
    @Test func percentEncodingMatchesItsDefinitionForEveryByte() {
        func reference(_ text: String) -> String {
            text.utf8.map { byte -> String in
                isUnreserved(byte) ? String(UnicodeScalar(byte)) : "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }.joined()
        }
        let scalars = (0...0x7FF).compactMap(UnicodeScalar.init) + ["\u{FFFD}", "\u{1F600}", "\u{10FFFF}"]
        for scalar in scalars {
            for text in [String(scalar), "ab" + String(scalar) + "~z", String(repeating: String(scalar), count: 40)] {
                #expect(PercentEncoding.encode(text) == reference(text), "\(scalar.value)")
            }
        }
    }

    /// One byte to escape (or one unreserved) at every position of a 40-byte unreserved text: each ASCII
    /// byte and two longer scalars, the text around them unchanged and the byte escaped as it is alone.
    @Test func percentEncodingFindsOneByteAnywhereInALongText() {
        let scalars = (0...0x7F).compactMap(UnicodeScalar.init) + ["\u{E9}", "\u{1F600}"]
        for scalar in scalars {
            let escaped = PercentEncoding.encode(String(scalar))
            for position in 0..<40 {
                let text = String(repeating: "x", count: position) + String(scalar) + String(repeating: "Z", count: 39 - position)
                let expected = String(repeating: "x", count: position) + escaped + String(repeating: "Z", count: 39 - position)
                #expect(PercentEncoding.encode(text) == expected, "\(scalar.value) at \(position)")
            }
        }
    }

    /// Texts of every length to 100 bytes and around the counter's runs of 8,160 bytes (255 steps of 32),
    /// ASCII mixed so that each step holds bytes of both kinds: the count of escapes matches the definition
    /// byte by byte, whatever the tail the last step reads.
    @Test func percentEncodingCountsEscapesAtEveryLength() {
        for length in Array(0...100) + [8_159, 8_160, 8_161, 8_191, 8_192, 8_193, 16_320, 16_353, 40_000] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: ($0 &* 37 &+ length) % 128) }
            let text = String(decoding: bytes, as: UTF8.self)
            let escaped = bytes.count { !isUnreserved($0) }
            #expect(PercentEncoding.encodedCount(of: text) == length + 2 * escaped, "\(length)")
        }
    }

    /// Every byte value at every place of a 32-byte step, of a last partial step and of an input shorter than
    /// one step: the byte counted once when it is escaped, never when it is not (whichever build of the count
    /// the processor runs).
    @Test func escapeCountClassifiesEveryByteInEveryLane() {
        var wrong: [String] = []
        for length in [1, 7, 31, 32, 33, 64, 95] {
            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            for place in 0..<length {
                for value in 0...255 {
                    bytes[place] = UInt8(value)
                    let count = bytes.withUnsafeBufferPointer { $0.baseAddress.map { brick_percent_escape_count($0, length) } }
                    if count != (isUnreserved(UInt8(value)) ? 0 : 1) { wrong.append("\(value) at \(place) of \(length)") }
                }
                bytes[place] = UInt8(ascii: "a")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }

    @Test func encodesEveryValueKind() {
        let builder = ParameterBuilder {
            TextParameter("s", name: "string")
            TextParameter(Int8(-8), name: "i8")
            TextParameter(Int16(16), name: "i16")
            TextParameter(Int32(32), name: "i32")
            TextParameter(Int64.max, name: "i64")
            TextParameter(UInt8(8), name: "u8")
            TextParameter(UInt16(16), name: "u16")
            TextParameter(UInt32(32), name: "u32")
            TextParameter(UInt64.max, name: "u64")
            TextParameter(UInt(7), name: "u")
            TextParameter(-3, name: "int")
            TextParameter(Float(1.5), name: "float")
            TextParameter(0.25, name: "double")
            TextParameter(true, name: "yes")
            TextParameter(false, name: "no")
        }
        #expect(builder.urlEncoded() == "string=s&i8=-8&i16=16&i32=32&i64=9223372036854775807&u8=8&u16=16&u32=32"
            + "&u64=18446744073709551615&u=7&int=-3&float=1.5&double=0.25&yes=true&no=false")
    }

    @Test func aNilValueSendsItsFallbackOrNothing() {
        let missing: Int? = nil
        var builder = ParameterBuilder()
        builder.add(TextParameter(value: missing, name: "page", catchOnNil: 1))
        builder.add(TextParameter(value: missing, name: "gone"))
        builder.add(TextParameter(value: Optional(5), name: "size", catchOnNil: 10))
        #expect(builder.urlEncoded() == "page=1&size=5")
    }

    @Test func theBuilderTakesConditionsAndLoops() {
        let tags = ["a", "b"]
        let flag = false
        let builder = ParameterBuilder {
            for tag in tags { TextParameter(tag, name: "tag") }
            if flag { TextParameter("x", name: "flag") } else { TextParameter("y", name: "flag") }
        }
        #expect(builder.urlEncoded() == "tag=a&tag=b&flag=y")
    }

    /// The query and the form body are one encoding, written at its counted length: against the pairs
    /// encoded one by one and joined, with missing values first, between and last, names and values that
    /// need escaping and some that do not, and empty ones.
    @Test func theQueryAndTheFormBodyAreThePairsEncodedAndJoined() {
        let none: String? = nil
        let pairs: [(String, String?)] = [
            ("gone", none), ("a b", "c&d"), ("plain", String(repeating: "x", count: 1022)), ("skip", none), ("é", "✓ ok"),
            ("", ""), ("k", ""), ("last", none),
        ]
        for count in 0...pairs.count {
            var builder = ParameterBuilder()
            for (name, value) in pairs.prefix(count) { builder.add(TextParameter(value: value, name: name)) }
            let expected = pairs.prefix(count).compactMap { name, value in
                value.map { PercentEncoding.encode(name) + "=" + PercentEncoding.encode($0) }
            }.joined(separator: "&")
            #expect(builder.urlEncoded() == expected, "\(count) pairs")
            #expect(builder.urlEncodedBody() == Data(expected.utf8), "\(count) pairs")
        }
    }

    @Test func anAllNilBuilderIsEmpty() {
        let none: String? = nil
        #expect(ParameterBuilder { TextParameter(value: none, name: "n") }.isEmpty)
        #expect(!ParameterBuilder { TextParameter("v", name: "n") }.isEmpty)
    }
}

@Suite struct URLResolutionTests {
    @Test(arguments: [
        ("/users/1", "https://api.test", "https://api.test/users/1"),
        ("users/1", "https://api.test/", "https://api.test/users/1"),
        ("/users/1", "https://api.test/", "https://api.test/users/1"),
        ("users/1", "https://api.test/v2", "https://api.test/v2/users/1"),
        ("https://other.test/x", "https://api.test", "https://other.test/x"),
        ("", "https://api.test", "https://api.test"),
    ] as [(String, String?, String)])
    func joinsBaseAndPath(path: String, base: String?, expected: String) {
        #expect(URLResolution.resolve(path, against: base) == expected)
    }

    @Test func withoutABaseThePathIsTheURL() {
        #expect(URLResolution.resolve("https://a.test/p", against: nil) == "https://a.test/p")
    }
}

/// RFC 3986's unreserved bytes (`A–Z a–z 0–9 - . _ ~`), written out as the definition the counts are checked
/// against.
private func isUnreserved(_ byte: UInt8) -> Bool {
    (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
        || [0x2D, 0x2E, 0x5F, 0x7E].contains(byte)
}
