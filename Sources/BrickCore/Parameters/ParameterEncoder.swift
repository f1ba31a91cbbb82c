import FoundationEssentials

/// Turns an `Encodable` value (a struct or a dictionary) into text parameters, for a query or a form body
/// built from a value instead of a ``ParameterBuilder`` list.
///
/// Each stored property becomes one `name=value` pair, in the order the value encodes them:
/// - strings, numbers and booleans as text (`true`/`false`), dates in ISO 8601, URLs and UUIDs as their text;
/// - `nil` properties are left out;
/// - arrays of those repeat the name (`tag=a&tag=b`);
/// - nested values name their members in brackets (`page[size]=20`), array elements that are not text by
///   their index (`items[0][id]=7`).
public struct ParameterEncoder: Sendable {
    /// An encoder with the rules above.
    public init() {}

    /// The parameters of `value`.
    /// - Throws: ``RequestEncodingError/unencodableBody(_:)`` when `value` is not keyed (a bare number or
    ///   array has no names) or its own `encode(to:)` fails.
    public func encode(_ value: some Encodable) throws(RequestEncodingError) -> ParameterBuilder {
        let sink = PairSink()
        do { try PairEncoder(sink: sink, path: nil).encodeValue(value) } catch {
            throw .unencodableBody(String(describing: error))
        }
        var parameters = ParameterBuilder()
        for (name, text) in sink.pairs { parameters.add(TextParameter(text, name: name)) }
        return parameters
    }
}

/// The pairs written so far by one ``ParameterEncoder/encode(_:)`` call (one thread, one call).
private final class PairSink {
    var pairs: [(String, String)] = []
}

/// The encoder at one name (`path`); the top level has none.
private struct PairEncoder: Encoder {
    let sink: PairSink
    let path: String?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedPairs<Key>(encoder: self))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedPairs(encoder: self) }
    func singleValueContainer() -> any SingleValueEncodingContainer { SinglePair(encoder: self) }

    /// The encoder for member `name` of this one.
    func member(_ name: String) -> PairEncoder { PairEncoder(sink: sink, path: path.map { "\($0)[\(name)]" } ?? name) }

    /// Writes `text` under this encoder's name.
    func put(_ text: String) throws {
        guard let path else {
            throw EncodingError.invalidValue(text, .init(codingPath: [], debugDescription: "parameters need names: encode a struct or a dictionary"))
        }
        sink.pairs.append((path, text))
    }

    /// Writes `value`: as text when it is one of the text-like types, else through its own `encode(to:)`.
    func encodeValue(_ value: some Encodable) throws {
        if let text = Self.text(of: value) { try put(text) } else { try value.encode(to: self) }
    }

    static func text(of value: some Encodable) -> String? {
        switch value {
        case let date as Date: date.formatted(Date.ISO8601FormatStyle())
        case let url as URL: url.absoluteString
        case let uuid as UUID: uuid.uuidString
        case let decimal as Decimal: decimal.description
        case let text as any TextParameterValue: text.textParameterValue
        default: nil
        }
    }
}

private struct KeyedPairs<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: PairEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode(_ value: Bool, forKey key: Key) throws { try encoder.member(key.stringValue).put(value ? "true" : "false") }
    mutating func encode(_ value: String, forKey key: Key) throws { try encoder.member(key.stringValue).put(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try encoder.member(key.stringValue).put("\(value)") }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encoder.member(key.stringValue).put("\(value)") }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encoder.member(key.stringValue).put("\(value)") }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encoder.member(key.stringValue).put("\(value)") }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encoder.member(key.stringValue).put("\(value)") }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encoder.member(key.stringValue).put("\(value)") }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encoder.member(key.stringValue).put("\(value)") }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encoder.member(key.stringValue).put("\(value)") }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encoder.member(key.stringValue).put("\(value)") }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encoder.member(key.stringValue).put("\(value)") }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encoder.member(key.stringValue).put("\(value)") }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encoder.member(key.stringValue).put("\(value)") }
    mutating func encode(_ value: some Encodable, forKey key: Key) throws { try encoder.member(key.stringValue).encodeValue(value) }

    mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key) -> KeyedEncodingContainer<Nested> {
        encoder.member(key.stringValue).container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.member(key.stringValue).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { encoder.member("super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.member(key.stringValue) }
}

/// An array: text elements repeat the array's name, other elements are named by their index.
private struct UnkeyedPairs: UnkeyedEncodingContainer {
    let encoder: PairEncoder
    var codingPath: [any CodingKey] { [] }
    var count = 0

    mutating func encodeNil() throws { count += 1 }
    mutating func encode(_ value: some Encodable) throws {
        defer { count += 1 }
        if let text = PairEncoder.text(of: value) { try encoder.put(text) } else { try value.encode(to: encoder.member("\(count)")) }
    }
    mutating func encode(_ value: Bool) throws { try encode(value ? "true" : "false") }
    mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type) -> KeyedEncodingContainer<Nested> {
        defer { count += 1 }
        return encoder.member("\(count)").container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        defer { count += 1 }
        return encoder.member("\(count)").unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { encoder }
}

private struct SinglePair: SingleValueEncodingContainer {
    let encoder: PairEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws {}
    mutating func encode(_ value: Bool) throws { try encoder.put(value ? "true" : "false") }
    mutating func encode(_ value: some Encodable) throws { try encoder.encodeValue(value) }
}
