import BrickSystem

/// Header fields kept as the lines they arrived in, in one allocation: what the engine builds a response's
/// head into, so that a head nobody reads costs one copy of its lines and no string. ``HTTPHeaders`` reads
/// a field out of the lines when asked (`headers["Content-Type"]` compares names byte by byte and makes one
/// string, the value), and makes the whole list of ``HTTPHeaders/Field``s only when that is asked for.
///
/// Each line is `name: value` as it came (without its line end), followed by a line feed, which no field
/// holds.
package struct RawFields: Sendable {
    private var bytes: [UInt8] = []

    /// An empty list, with room for `capacity` bytes (none allocated for zero).
    package init(capacity: Int) {
        guard capacity > 0 else { return }
        bytes.reserveCapacity(capacity)
    }

    package var isEmpty: Bool { bytes.isEmpty }

    /// Appends a field line: `name: value`, with a colon in it, without its line end.
    package mutating func append(line: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: line.baseAddress?.assumingMemoryBound(to: UInt8.self), count: line.count))
        bytes.append(0x0A)
    }

    /// Appends lines already in the fields' layout (each `name: value` followed by a line feed); the first
    /// ones are copied into an allocation of their size.
    ///
    /// Made by reserving and appending: `Array(unsafeUninitializedCapacity:)` reaches the standard library's
    /// unspecialized allocation, which looks up the storage class's metadata on every call (~0.35 k
    /// instructions of a plain request's ~0.8 k for its head's copy).
    package mutating func append(lines: UnsafeRawBufferPointer) {
        guard !lines.isEmpty else { return }
        if bytes.isEmpty { bytes.reserveCapacity(lines.count) }
        bytes.append(contentsOf: lines.assumingMemoryBound(to: UInt8.self))
    }

    /// Appends `continuation` to the last field's value, joined by one space (an obsolete line fold); in
    /// place, whatever came before. Does nothing when there is no field.
    package mutating func appendToLastValue(_ continuation: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        bytes.removeLast()  // the line feed
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        bytes.append(0x20)
        append(line: continuation)
    }

    /// Calls `body` with each field's name and value (both without the spaces and tabs around them), in
    /// order, until it returns `false`.
    func forEach(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool) {
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = offsetOfByte(0x0A, in: all, from: start, to: all.count) ?? all.count  // every line ends with one
                let colon = offsetOfByte(0x3A, in: all, from: start, to: end) ?? end
                let name = Self.trimmed(UnsafeBufferPointer(rebasing: all[start..<colon]))
                let value = Self.trimmed(UnsafeBufferPointer(rebasing: all[Swift.min(colon + 1, end)..<end]))
                guard body(name, value) else { return }
                start = end + 1
            }
        }
    }

    /// The bytes without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// Every field, as strings.
    var fields: [HTTPHeaders.Field] {
        var fields: [HTTPHeaders.Field] = []
        forEach { name, value in
            fields.append(HTTPHeaders.Field(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
            return true
        }
        return fields
    }

    /// How many fields there are.
    var count: Int { bytes.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } }

    /// Whether a field is named `name` (ignoring ASCII case); makes no string.
    func contains(named name: String) -> Bool {
        var found = false
        var name = name
        name.withUTF8 { wanted in
            forEachValue(named: wanted) { _ in
                found = true
                return false
            }
        }
        return found
    }

    /// The value of the first field named `name` (ignoring ASCII case), if any.
    func firstValue(named name: String) -> String? {
        var found: String?
        var name = name
        name.withUTF8 { wanted in
            forEachValue(named: wanted) { value in
                found = String(decoding: value, as: UTF8.self)
                return false
            }
        }
        return found
    }

    /// The values of every field named `name` (ignoring ASCII case), in order.
    func values(named name: String) -> [String] {
        var found: [String] = []
        var name = name
        name.withUTF8 { wanted in
            forEachValue(named: wanted) { value in
                found.append(String(decoding: value, as: UTF8.self))
                return true
            }
        }
        return found
    }

    /// Calls `body` with the value (without the spaces and tabs around it) of each field named `wanted`
    /// (ignoring ASCII case), in order, until it returns `false`. A line is judged by its first bytes: only
    /// one that starts with the name (after any blanks) is read to its colon, so that a lookup costs about a
    /// `memchr` a line.
    private func forEachValue(named wanted: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = offsetOfByte(0x0A, in: all, from: start, to: all.count) ?? all.count  // every line ends with one
                var name = start
                while name < end, all[name] == 0x20 || all[name] == 0x09 { name += 1 }
                if end - name > wanted.count, Self.sameName(UnsafeBufferPointer(rebasing: all[name..<name + wanted.count]), wanted) {
                    var colon = name + wanted.count
                    while colon < end, all[colon] == 0x20 || all[colon] == 0x09 { colon += 1 }
                    if colon < end, all[colon] == 0x3A, !body(Self.trimmed(UnsafeBufferPointer(rebasing: all[colon + 1..<end]))) { return }
                }
                start = end + 1
            }
        }
    }

    /// Whether two names are equal ignoring ASCII case.
    private static func sameName(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count {
            let a = lhs[index], b = rhs[index]
            guard a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z")) else { return false }
        }
        return true
    }
}
