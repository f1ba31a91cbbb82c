import Bricks
import Foundation
import Testing

/// JSON numbers are exact, and the parser reads RFC 8259 and nothing else.
@Suite struct JSONTests {
    func parse(_ text: String) throws -> JSON { try JSON.parse(Data(text.utf8)) }

    @Test func integersPastTwoToThe53KeepEveryDigit() throws {
        let json = try parse(#"{"id": 9007199254740993, "max": 18446744073709551615, "min": -9223372036854775808}"#)
        #expect(json["id"]?.int64Value == 9_007_199_254_740_993)
        #expect(json["id"]?.intValue == 9_007_199_254_740_993)
        #expect(json["max"]?.uint64Value == UInt64.max)
        #expect(json["max"]?.int64Value == nil)
        #expect(json["min"]?.int64Value == Int64.min)
        #expect(json["id"]?.numberValue?.text == "9007199254740993")
    }

    @Test func decimalsKeepTheirTextAndCompareByValue() throws {
        let json = try parse(#"[0.1, 1.10, 1.1, 123456789.123456789, 6.02e23, -0, 0]"#)
        #expect(json[0]?.numberValue?.text == "0.1")
        #expect(json[0]?.numberValue?.decimalValue == Decimal(string: "0.1"))
        #expect(json[1] == json[2])
        #expect(json[3]?.numberValue?.text == "123456789.123456789")
        #expect(json[4]?.doubleValue == 6.02e23)
        #expect(json[4]?.intValue == nil)
        #expect(json[5] == json[6])
        #expect(Set([json[1], json[2]]).count == 1)
    }

    @Test func numbersRoundTripThroughCodableExactly() throws {
        let original = try parse(#"{"big": 9007199254740993, "dec": 1.25, "neg": -42}"#)
        let encoded = try JSONEncoder().encode(original)
        let decoded = try JSONDecoder().decode(JSON.self, from: encoded)
        #expect(decoded["big"]?.int64Value == 9_007_199_254_740_993)
        #expect(decoded["dec"] == original["dec"])
        #expect(decoded["neg"]?.intValue == -42)
        #expect(try parse(String(decoding: encoded, as: UTF8.self))["big"]?.int64Value == 9_007_199_254_740_993)
        // 1e400 is read exactly, but no encoder can write it: encoding says so rather than write another number.
        let huge = try parse("[1e400]")
        #expect(huge[0]?.numberValue?.text == "1e400")
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(huge) }
    }

    @Test func literalsAndAccessors() throws {
        let json: JSON = .array([.number(2), .number(2.5), .string("s"), .bool(true), .null])
        #expect(json[0]?.intValue == 2)
        #expect(json[1]?.doubleValue == 2.5)
        #expect(json.description == #"[2, 2.5, "s", true, null]"#)
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(text: "01") == nil)
        #expect(JSONNumber(text: "-1.5e-3")?.doubleValue == -0.0015)
    }

    @Test func stringsUnescapeEverythingRFC8259Allows() throws {
        let json = try parse(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20ac", "\ud83d\ude00", "plain é"]"#)
        #expect(json[0]?.stringValue == "a\"b\\c/d\u{8}\u{C}\n\r\t")
        #expect(json[1]?.stringValue == "é€")
        #expect(json[2]?.stringValue == "😀")
        #expect(json[3]?.stringValue == "plain é")
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", "[1 2]", "{\"a\" 1}", "{\"a\":1,}", "01", "1.", ".5", "1e", "+1", "-", "tru", "nul",
        "\"abc", "\"a\u{1}b\"", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "[1] 2", "NaN", "Infinity", "{1:2}",
    ])
    func documentsThatAreNotJSONAreRefused(text: String) {
        #expect(throws: JSONParseError.self) { try parse(text) }
    }

    @Test func invalidUTF8InAStringIsRefused() {
        #expect(throws: JSONParseError.self) { try JSON.parse(Data([0x22, 0xC3, 0x28, 0x22])) }
    }

    @Test func nestingIsBoundedRatherThanExhaustingTheStack() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = try #require(throws: JSONParseError.self) { try parse(deep) }
        #expect(error.reason.contains("nested deeper"))
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: Never.self) { try parse(fine) }
    }

    @Test func anErrorSaysWhere() throws {
        let error = try #require(throws: JSONParseError.self) { try parse(#"{"a": [1, 2, x]}"#) }
        #expect(error.offset == 13)
    }

    @Test func aRepeatedMemberKeepsItsLastValue() throws {
        #expect(try parse(#"{"a": 1, "a": 2}"#)["a"]?.intValue == 2)
    }

    struct Person: Decodable {
        struct Friend: Decodable { let id: Int }
        let name: String
        let friends: [Friend]
    }

    @Test func aDecodingFailureSaysWhichMemberFailedAndShowsTheBody() throws {
        let body = Data(#"{"name": "Ada", "friends": [{"id": 1}, {"id": "two"}]}"#.utf8)
        let error = try #require(throws: DecodingError.self) { try JSONDecoder().decode(Person.self, from: body) }
        let failure = DecodingFailure(error, body: body)
        #expect(failure.codingPath == "friends[1].id")
        #expect(failure.bodyExcerpt == String(decoding: body, as: UTF8.self))
        #expect(failure.description.hasPrefix("at friends[1].id: expected Int"))

        let missing = try #require(throws: DecodingError.self) { try JSONDecoder().decode(Person.self, from: Data(#"{"name": "Ada"}"#.utf8)) }
        #expect(DecodingFailure(missing, body: Data()).codingPath == "friends")
        let long = Data(repeating: UInt8(ascii: "x"), count: 10_000)
        #expect(DecodingFailure(missing, body: long).bodyExcerpt.utf8.count == DecodingFailure.excerptLimit)
    }
}
