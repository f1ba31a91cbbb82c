public import FoundationEssentials

/// One whole message a WebSocket peer sent: its fragments joined, inflated when it came compressed, its text
/// checked to be UTF-8.
public enum WebSocketMessage: Sendable, Equatable {
    /// A text message (opcode 1), checked to be UTF-8.
    case text(String)
    /// A binary message (opcode 2).
    case binary(Data)
}

/// How the peer ended the connection: the code and reason of its close frame (1005 when it gave none,
/// 1006 when the connection ended without one).
public struct WebSocketClose: Sendable, Equatable {
    /// The close code (RFC 6455 §7.4): 1000 for a normal close, 1001 going away, 4000–4999 the
    /// application's own.
    public let code: UInt16
    /// The reason, UTF-8, at most 123 bytes.
    public let reason: String

    /// A close with `code` and `reason`.
    public init(code: UInt16, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// Whether `code` may appear in a close frame (RFC 6455 §7.4: 1000–1003, 1007–1014, 3000–4999).
    static func isSendable(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
