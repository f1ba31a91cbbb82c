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
    public var fields: [Field] {
        switch storage {
        case .fields(let fields): fields
        case .raw(let raw): raw.fields
        }
    }

    /// The fields: strings, or, while nobody changed them, the bytes they arrived in (a response head's,
    /// read without making strings). One reference either way, so that a copy of the list is one retain.
    private enum Storage {
        case fields([Field])
        case raw(RawFields)
    }
    private var storage: Storage

    /// The raw fields, if the list is still in that form.
    private var raw: RawFields? { if case .raw(let raw) = storage { raw } else { nil } }

    /// The fields as strings, to change in place (the raw ones made strings first).
    private var stored: [Field] {
        get { fields }
        _modify {
            var fields = self.fields
            storage = .fields([])  // so that `fields` is the only reference while it changes
            defer { storage = .fields(fields) }
            yield &fields
        }
    }

    /// How many fields at the start have passed ``validate()`` and not changed since
    /// (``validatedForReuse()``), so that a list validated once, such as a session's, is not checked again
    /// for every request it goes with. Every change to one of them resets it.
    var validatedCount = 0

    private enum CodingKeys: String, CodingKey { case fields }

    public init(from decoder: any Decoder) throws {
        storage = .fields(try decoder.container(keyedBy: CodingKeys.self).decode([Field].self, forKey: .fields))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fields, forKey: .fields)
    }

    /// A list read from `raw` fields, as they arrived.
    package init(raw: RawFields) { storage = .raw(raw) }

    /// Makes the raw fields strings, before a change.
    private mutating func materialize() {
        if case .raw(let raw) = storage { storage = .fields(raw.fields) }
    }

    /// Equal when the fields are, whatever was validated.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool { lhs.fields == rhs.fields }

    /// Creates an empty list.
    public init() { storage = .fields([]) }

    /// Creates a list from fields, keeping their order.
    public init(_ fields: [Field]) { storage = .fields(fields) }

    public init(dictionaryLiteral elements: (String, String)...) {
        // `[:]`, the usual default of a request's headers, maps nothing (the map's generic setup costs more
        // than the empty list).
        storage = .fields(elements.isEmpty ? [] : elements.map { Field(name: $0.0, value: $0.1) })
    }

    /// The first value of the field named `name` (case-insensitive); setting replaces every field of that
    /// name with one, or removes them all when set to `nil`.
    public subscript(name: String) -> String? {
        get {
            if let raw { return raw.firstValue(named: name) }
            return stored.first { Self.sameName($0.name, name) }?.value
        }
        set {
            materialize()
            guard let newValue else {
                stored.removeAll { Self.sameName($0.name, name) }
                validatedCount = 0
                return
            }
            guard let index = stored.firstIndex(where: { Self.sameName($0.name, name) }) else {
                stored.append(Field(name: name, value: newValue))
                return
            }
            stored[index].value = newValue
            validatedCount = Swift.min(validatedCount, index)
            guard stored[(index + 1)...].contains(where: { Self.sameName($0.name, name) }) else { return }
            let tail = stored[(index + 1)...].filter { !Self.sameName($0.name, name) }
            stored.replaceSubrange((index + 1)..., with: tail)
        }
    }

    /// Whether a field is named `name` (case-insensitive); makes no string of a response's fields.
    public func contains(name: String) -> Bool {
        if let raw { return raw.contains(named: name) }
        return stored.contains { Self.sameName($0.name, name) }
    }

    /// Every value of the fields named `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        if let raw { return raw.values(named: name) }
        return stored.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Appends a field, keeping any field of the same name.
    public mutating func add(name: String, value: String) {
        materialize()
        stored.append(Field(name: name, value: value))
    }

    /// Appends a field that its caller knows to pass ``validate()`` (one the library writes from constants):
    /// when every field before it is validated, it is counted with them and not checked again.
    package mutating func addValidated(name: String, value: String) {
        let followsValidated = validatedCount == count
        add(name: name, value: value)
        if followsValidated { validatedCount += 1 }
    }

    /// Makes room for `count` fields in all, so that adding them one by one allocates once.
    public mutating func reserveCapacity(_ count: Int) {
        materialize()
        stored.reserveCapacity(count)
    }

    /// Sets every field of `other`, replacing fields of the same name here: every field of `other` is
    /// kept, repeated names included, in its order (the first one where the replaced field stood, the rest
    /// after it).
    public mutating func merge(_ other: HTTPHeaders) {
        guard !other.isEmpty else { return }
        guard !isEmpty else { return self = other }
        materialize()
        let other = other.fields
        var merged: [Field] = []
        merged.reserveCapacity(stored.count + other.count)
        var placed = [Bool](repeating: false, count: other.count)
        // The validated fields at the start of this list stay validated up to the first one replaced.
        var keptValidated = 0
        for (index, field) in stored.enumerated() {
            guard let first = other.firstIndex(where: { Self.sameName($0.name, field.name) }) else {
                if index < validatedCount && keptValidated == index { keptValidated += 1 }
                merged.append(field)
                continue
            }
            guard !placed[first] else { continue }
            for index in other.indices where !placed[index] && Self.sameName(other[index].name, field.name) {
                merged.append(other[index])
                placed[index] = true
            }
        }
        for index in other.indices where !placed[index] { merged.append(other[index]) }
        stored = merged
        validatedCount = keptValidated
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { raw?.isEmpty ?? stored.isEmpty }
    /// How many fields there are, duplicates included.
    public var count: Int { raw?.count ?? stored.count }
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// One `Name: value` line a field, the values of secret fields (``Secrets/headerNames``) hidden.
    public var description: String { fields.map(\.description).joined(separator: "\n") }
}

extension HTTPHeaders {
    /// Appends `continuation` to the last field's value, joined by one space (an obsolete line fold in a
    /// response head). Does nothing when there is no field. Constant time per call, whatever the count.
    public mutating func appendToLastValue(_ continuation: String) {
        materialize()
        guard !stored.isEmpty else { return }
        stored[stored.count - 1].value += " " + continuation
        validatedCount = Swift.min(validatedCount, stored.count - 1)
    }
}
