extension HTTPHeaders {
    /// Checks that every name is an RFC 9110 token and that no value holds CR, LF or NUL, so that no header
    /// can smuggle another header or a second request.
    ///
    /// - Throws: ``TransportError`` of kind ``TransportError/Kind/invalidHeader`` naming the first bad field.
    public func validate() throws(TransportError) {
        let fields = self.fields
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
