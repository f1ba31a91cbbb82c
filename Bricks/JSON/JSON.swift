public import FoundationEssentials

/// A JSON value, typed: what `JSONResponseType` serializes to.
///
/// Read it with subscripts and accessors: `json["args"]?["id"]?.stringValue`. Numbers keep the text the
/// document wrote (``JSONNumber``), so an integer past 2⁵³ or a decimal loses no digit.
///
/// ``parse(_:)`` reads a document in one pass (what `JSONResponseType` uses); `JSON` is also `Codable`, to
/// embed an untyped part in your own models.
public enum JSON: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSON])
    /// An object; its members by name.
    case object([String: JSON])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(JSONNumber.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Reads a JSON document (RFC 8259); numbers keep their text.
    /// - Throws: ``JSONParseError`` with the byte offset where the document stopped being JSON.
    public static func parse(_ data: Data) throws(JSONParseError) -> JSON { try JSONParser.parse(data) }

    /// The member named `key` of an object.
    public subscript(key: String) -> JSON? { if case .object(let members) = self { members[key] } else { nil } }
    /// The element at `index` of an array.
    public subscript(index: Int) -> JSON? {
        if case .array(let elements) = self, elements.indices.contains(index) { elements[index] } else { nil }
    }

    /// The string, if this is one.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    /// The number, exactly as written, if this is one.
    public var numberValue: JSONNumber? { if case .number(let value) = self { value } else { nil } }
    /// The nearest `Double` to the number, if this is one (past 2⁵³ it may differ: read integers with
    /// ``intValue``, ``int64Value`` or ``uint64Value``, which are exact).
    public var doubleValue: Double? { numberValue?.doubleValue }
    /// The number, if it is an integer that fits an `Int`.
    public var intValue: Int? { numberValue?.intValue }
    /// The number, if it is an integer that fits an `Int64`.
    public var int64Value: Int64? { numberValue?.int64Value }
    /// The number, if it is a non-negative integer that fits a `UInt64`.
    public var uint64Value: UInt64? { numberValue?.uint64Value }
    /// The Boolean, if this is one.
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The elements, if this is an array.
    public var arrayValue: [JSON]? { if case .array(let value) = self { value } else { nil } }
    /// The members, if this is an object.
    public var objectValue: [String: JSON]? { if case .object(let value) = self { value } else { nil } }
    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .number(let value): value.text
        case .string(let value): value.debugDescription
        case .array(let value): "[" + value.map(\.description).joined(separator: ", ") + "]"
        case .object(let value):
            "{" + value.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription): \($0.value)" }
                .joined(separator: ", ") + "}"
        }
    }
}
