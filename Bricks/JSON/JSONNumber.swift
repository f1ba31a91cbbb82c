public import FoundationEssentials

/// A JSON number exactly as the document wrote it: an integer of any size (a 64-bit id, a counter, money in
/// minor units) and a decimal keep every digit; nothing goes through a `Double` unless you ask for one.
///
/// Two numbers are equal when their values are (`1.10` and `1.1`, `0` and `-0`), whatever their text.
public struct JSONNumber: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral
{
    /// The number as JSON writes it: `-12`, `3.25`, `6.02e23`.
    public let text: String

    /// The number written as `text`, if `text` is a JSON number (RFC 8259 §6: no leading zeros, no `+`, no
    /// bare `.`, digits after `.` and `e`).
    public init?(text: String) {
        var bytes = text.utf8[...]
        guard JSONNumber.scan(&bytes), bytes.isEmpty else { return nil }
        self.text = text
    }

    /// Text already checked by the parser.
    init(checked text: String) { self.text = text }

    /// An integer.
    public init(_ value: Int64) { text = String(value) }
    /// An unsigned integer.
    public init(_ value: UInt64) { text = String(value) }
    /// An integer.
    public init(_ value: Int) { text = String(value) }
    /// A binary floating-point value, in the shortest text that reads back as it; `nil` for infinities and
    /// NaN, which JSON cannot write.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        if let integer = Int64(exactly: value), value != 0 || value.sign == .plus { text = String(integer) } else {
            text = "\(value)"
        }
    }

    /// An integer literal.
    public init(integerLiteral value: Int64) { self.init(value) }
    /// A floating-point literal (always finite).
    public init(floatLiteral value: Double) { self = JSONNumber(value) ?? JSONNumber(Int64(0)) }

    /// Whether the text is an integer (no fraction, no exponent).
    public var isInteger: Bool { !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") } }
    /// The value, if it is an integer within `Int64`'s range.
    public var int64Value: Int64? { isInteger ? Int64(text) : nil }
    /// The value, if it is a non-negative integer within `UInt64`'s range.
    public var uint64Value: UInt64? { isInteger ? UInt64(text) : nil }
    /// The value, if it is an integer within `Int`'s range.
    public var intValue: Int? { isInteger ? Int(text) : nil }
    /// The value as a `Decimal` (exact up to 38 significant digits), if it is within `Decimal`'s range.
    public var decimalValue: Decimal? { Decimal(string: text) }
    /// The nearest `Double` (which may differ from the value: past 2⁵³ not every integer is a `Double`).
    public var doubleValue: Double { Double(text) ?? (text.hasPrefix("-") ? -.infinity : .infinity) }

    public var description: String { text }

    /// Whether the two are the same number: the same integer, or the same decimal value (`1.10` and `1.1`).
    /// Equal numbers always have the same nearest `Double`, which is what ``hash(into:)`` hashes.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if lhs.text == rhs.text { return true }
        guard lhs.doubleValue == rhs.doubleValue else { return false }
        if lhs.isInteger && rhs.isInteger { return lhs.integerDigits == rhs.integerDigits }
        if let left = lhs.decimalValue, let right = rhs.decimalValue, !left.isNaN, !right.isNaN { return left == right }
        return true  // past `Decimal`'s range: as equal as their nearest Doubles
    }

    /// Hashes the nearest `Double`, which equal numbers share (with `0` for `-0`).
    public func hash(into hasher: inout Hasher) { hasher.combine(doubleValue == 0 ? 0 : doubleValue) }

    /// An integer's text without a sign on zero (`-0` is `0`).
    private var integerDigits: Substring { text == "-0" ? "0" : text[...] }

    /// Decodes the number as exactly as the decoder can give it: an integer, else a `Decimal`, else a `Double`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            self.init(integer)
        } else if let integer = try? container.decode(UInt64.self) {
            self.init(integer)
        } else if let decimal = try? container.decode(Decimal.self), let number = JSONNumber(text: decimal.description) {
            self = number
        } else {
            let value = try container.decode(Double.self)
            guard let number = JSONNumber(value) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(value) is not a JSON number")
            }
            self = number
        }
    }

    /// Encodes the number exactly: as an integer, else as a `Decimal` when that keeps every digit, else as the
    /// nearest `Double`. A number beyond `Double`'s range (`1e400`) throws `EncodingError`: an encoder cannot
    /// write it, and writing another number would change it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let integer = int64Value {
            try container.encode(integer)
        } else if let integer = uint64Value {
            try container.encode(integer)
        } else if let decimal = decimalValue, JSONNumber(text: decimal.description) == self {
            try container.encode(decimal)
        } else if doubleValue.isFinite {
            try container.encode(doubleValue)
        } else {
            throw EncodingError.invalidValue(self, EncodingError.Context(
                codingPath: encoder.codingPath, debugDescription: "\(text) is beyond what an encoder can write"))
        }
    }

    /// Consumes one JSON number from the front of `bytes`; `false` (with `bytes` anywhere) when there is none.
    static func scan(_ bytes: inout Substring.UTF8View) -> Bool {
        func digits(_ bytes: inout Substring.UTF8View) -> Int {
            var count = 0
            while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                bytes.removeFirst()
                count += 1
            }
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        if bytes.first == UInt8(ascii: "0") { bytes.removeFirst() } else if digits(&bytes) == 0 { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            guard digits(&bytes) > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes.removeFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
            guard digits(&bytes) > 0 else { return false }
        }
        return true
    }
}
