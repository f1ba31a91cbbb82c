/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Order and duplicates are kept as given, so that what is sent is exactly what was written.
public struct HTTPHeaders: Sendable, Equatable, Codable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Equatable, Codable {
        /// The field name, as written (compared case-insensitively).
        public var name: String
        /// The field value.
        public var value: String
        /// A field `name: value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every field, in order, duplicates included.
    public private(set) var fields: [Field]
    /// How many fields at the start have passed ``validate()`` and not changed since
    /// (``validatedForReuse()``), so that a list validated once, such as a session's, is not checked again
    /// for every request it goes with. Every change to one of them resets it.
    private var validatedCount = 0

    private enum CodingKeys: String, CodingKey { case fields }

    /// Equal when the fields are, whatever was validated.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool { lhs.fields == rhs.fields }

    /// Creates an empty list.
    public init() { fields = [] }

    /// Creates a list from fields, keeping their order.
    public init(_ fields: [Field]) { self.fields = fields }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of the field named `name` (case-insensitive); setting replaces every field of that
    /// name with one, or removes them all when set to `nil`.
    public subscript(name: String) -> String? {
        get { fields.first { Self.sameName($0.name, name) }?.value }
        set {
            guard let newValue else {
                fields.removeAll { Self.sameName($0.name, name) }
                validatedCount = 0
                return
            }
            guard let index = fields.firstIndex(where: { Self.sameName($0.name, name) }) else {
                fields.append(Field(name: name, value: newValue))
                return
            }
            fields[index].value = newValue
            validatedCount = Swift.min(validatedCount, index)
            guard fields[(index + 1)...].contains(where: { Self.sameName($0.name, name) }) else { return }
            let tail = fields[(index + 1)...].filter { !Self.sameName($0.name, name) }
            fields.replaceSubrange((index + 1)..., with: tail)
        }
    }

    /// Every value of the fields named `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Appends a field, keeping any field of the same name.
    public mutating func add(name: String, value: String) { fields.append(Field(name: name, value: value)) }

    /// Makes room for `count` fields in all, so that adding them one by one allocates once.
    public mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// Sets every field of `other`, replacing fields of the same name here: every field of `other` is
    /// kept, repeated names included, in its order (the first one where the replaced field stood, the rest
    /// after it).
    public mutating func merge(_ other: HTTPHeaders) {
        guard !other.isEmpty else { return }
        guard !isEmpty else { return self = other }
        var merged: [Field] = []
        merged.reserveCapacity(fields.count + other.count)
        var placed = [Bool](repeating: false, count: other.count)
        // The validated fields at the start of this list stay validated up to the first one replaced.
        var keptValidated = 0
        for (index, field) in fields.enumerated() {
            guard let first = other.fields.firstIndex(where: { Self.sameName($0.name, field.name) }) else {
                if index < validatedCount && keptValidated == index { keptValidated += 1 }
                merged.append(field)
                continue
            }
            guard !placed[first] else { continue }
            for index in other.fields.indices where !placed[index] && Self.sameName(other.fields[index].name, field.name) {
                merged.append(other.fields[index])
                placed[index] = true
            }
        }
        for index in other.fields.indices where !placed[index] { merged.append(other.fields[index]) }
        fields = merged
        validatedCount = keptValidated
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }
    /// How many fields there are, duplicates included.
    public var count: Int { fields.count }
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// One `Name: value` line a field, the values of secret fields (``Secrets/headerNames``) hidden.
    public var description: String { fields.map(\.description).joined(separator: "\n") }
}

extension HTTPHeaders {
    /// Checks that every name is an RFC 9110 token and that no value holds CR, LF or NUL, so that no header
    /// can smuggle another header or a second request.
    ///
    /// - Throws: ``TransportError`` of kind ``TransportError/Kind/invalidHeader`` naming the first bad field.
    public func validate() throws(TransportError) {
        for field in fields[validatedCount...] {
            var name = field.name
            guard name.withUTF8({ !$0.isEmpty && $0.allSatisfy(Self.isTokenByte) }) else {
                throw TransportError(.invalidHeader, message: "invalid header name \(field.name.debugDescription)")
            }
            // Field values are visible characters, spaces and tabs (RFC 9110 §5.5): CR and LF would inject
            // another field, NUL ends the string in C, and other control bytes have no business on the wire.
            var value = field.value
            guard !value.withUTF8({ $0.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F } }) else {
                throw TransportError(
                    .invalidHeader, message: "header \(field.name) has a control character (CR, LF, NUL or another) in its value")
            }
            // Only names of a framing field's length are compared (2, 7, 10, 14, 16 or 17 bytes).
            let length = name.utf8.count
            guard !(Self.framingLengths & (1 << Swift.min(length, 63)) != 0
                && Self.framingFieldNames.contains(where: { Self.sameName($0, field.name) }))
            else {
                throw TransportError(
                    .invalidHeader,
                    message: "header \(field.name) decides how the message is framed or the connection is used; the transport sets it")
            }
        }
    }

    /// The list, marked as validated when it passes ``validate()`` (else unmarked, so that every request it
    /// goes with fails as it would have): for a list kept and sent with many requests, such as a session's.
    package func validatedForReuse() -> HTTPHeaders {
        var marked = self
        marked.validatedCount = 0
        guard (try? marked.validate()) != nil else { return marked }
        marked.validatedCount = marked.fields.count
        return marked
    }

    /// Fields that decide how a message is delimited or how the connection is used. The transport sets
    /// them from the body and its own connection handling; a caller's value (for example one forwarded
    /// from another request) could make the server read a different request than the one sent, so
    /// ``validate()`` refuses them.
    public static let framingFieldNames: Set<String> = [
        "content-length", "transfer-encoding", "connection", "keep-alive", "proxy-connection", "upgrade", "te", "trailer",
    ]

    /// Appends `continuation` to the last field's value, joined by one space (an obsolete line fold in a
    /// response head). Does nothing when there is no field. Constant time per call, whatever the count.
    public mutating func appendToLastValue(_ continuation: String) {
        guard !fields.isEmpty else { return }
        fields[fields.count - 1].value += " " + continuation
        validatedCount = Swift.min(validatedCount, fields.count - 1)
    }

    /// Whether two field names are equal ignoring ASCII case (field names are ASCII tokens); allocates nothing.
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        lhs == rhs || lhs.utf8.count == rhs.utf8.count && zip(lhs.utf8, rhs.utf8).allSatisfy { a, b in
            a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
        }
    }

    /// The lengths of ``framingFieldNames``, as bits.
    private static let framingLengths: UInt64 = framingFieldNames.reduce(0) { $0 | 1 << UInt64($1.utf8.count) }

    /// Whether `byte` may appear in an RFC 9110 `token` (header names, methods).
    public static func isTokenByte(_ byte: UInt8) -> Bool {
        byte < 128 && (byte < 64 ? tokenBytesLow >> byte : tokenBytesHigh >> (byte - 64)) & 1 == 1
    }

    /// The token bytes as two 64-bit masks: letters, digits and ``!#$%&'*+-.^_`|~``.
    private static let (tokenBytesLow, tokenBytesHigh): (UInt64, UInt64) = {
        var low: UInt64 = 0, high: UInt64 = 0
        for byte in Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~".utf8) {
            if byte < 64 { low |= 1 << byte } else { high |= 1 << (byte - 64) }
        }
        return (low, high)
    }()
}
