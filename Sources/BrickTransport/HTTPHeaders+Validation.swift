extension HTTPHeaders {
    /// Checks that every name is an RFC 9110 token and that no value holds CR, LF or NUL, so that no header
    /// can smuggle another header or a second request.
    ///
    /// - Throws: ``TransportError`` of kind ``TransportError/Kind/invalidHeader`` naming the first bad field.
    public func validate() throws(TransportError) {
        let fields = self.fields
        for field in fields[validatedCount...] {
            var name = field.name
            let (isToken, isFraming) = name.withUTF8 { bytes in
                (!bytes.isEmpty && bytes.allSatisfy(Self.isTokenByte), Self.isFramingName(bytes))
            }
            guard isToken else {
                throw TransportError(.invalidHeader, message: "invalid header name \(field.name.debugDescription)")
            }
            // Field values are visible characters, spaces and tabs (RFC 9110 §5.5): CR and LF would inject
            // another field, NUL ends the string in C, and other control bytes have no business on the wire.
            var value = field.value
            guard !value.withUTF8({ $0.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F } }) else {
                throw TransportError(
                    .invalidHeader, message: "header \(field.name) has a control character (CR, LF, NUL or another) in its value")
            }
            guard !isFraming else {
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
        marked.validatedCount = marked.count
        return marked
    }

    /// Fields that decide how a message is delimited or how the connection is used. The transport sets
    /// them from the body and its own connection handling; a caller's value (for example one forwarded
    /// from another request) could make the server read a different request than the one sent, so
    /// ``validate()`` refuses them.
    public static let framingFieldNames: Set<String> = [
        "content-length", "transfer-encoding", "connection", "keep-alive", "proxy-connection", "upgrade", "te", "trailer",
    ]

    /// Whether two field names are equal ignoring ASCII case (field names are ASCII tokens); allocates nothing.
    package static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        lhs == rhs || lhs.utf8.count == rhs.utf8.count && zip(lhs.utf8, rhs.utf8).allSatisfy { a, b in
            a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
        }
    }

    /// Whether `name` is one of ``framingFieldNames`` in any case, compared as bytes with the names of its
    /// length only (a comparison with each name of the set, as strings, cost ~500 instructions for a
    /// `User-Agent`). Exact for a token: of the token bytes, bit 0x20 turns only the letters into others
    /// (lowercase), and the names hold only letters and `-`.
    static func isFramingName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        switch name.count {
        case 2: matches(name, "te")
        case 7: matches(name, "upgrade") || matches(name, "trailer")
        case 10: matches(name, "connection") || matches(name, "keep-alive")
        case 14: matches(name, "content-length")
        case 16: matches(name, "proxy-connection")
        case 17: matches(name, "transfer-encoding")
        default: false
        }
    }

    /// Whether `name`, its letters made lowercase, is `lowercase` (of the same length).
    private static func matches(_ name: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        lowercase.withUTF8Buffer { expected in
            for index in 0..<expected.count where name[index] | 0x20 != expected[index] { return false }
            return true
        }
    }

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
