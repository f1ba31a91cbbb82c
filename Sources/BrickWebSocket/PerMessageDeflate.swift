import FoundationEssentials

/// permessage-deflate (RFC 7692) as this client offers it and understands a server's answer to the offer.
///
/// The offer is `permessage-deflate; client_no_context_takeover; client_max_window_bits`: the server may
/// then limit the client's window and keep its own context or not; this client keeps no compression
/// context between the messages it sends (so it holds no deflate window while idle), and inflates the
/// server's messages with whatever the server chose.
struct DeflateParameters: Equatable, Sendable {
    var serverNoContextTakeover = false
    var clientMaxWindowBits = 15
    var serverMaxWindowBits = 15

    /// The extension offered in `Sec-WebSocket-Extensions`.
    static let offer = "permessage-deflate; client_no_context_takeover; client_max_window_bits"

    /// What the server's `Sec-WebSocket-Extensions` agreed to: `nil` when it is absent (no compression).
    /// - Throws: ``WebSocketError/Kind/handshakeRefused`` when it names an extension that was not offered,
    ///   the same one twice, or parameters RFC 7692 does not allow in an answer.
    static func agreed(_ header: String?, offered: Bool) throws(WebSocketError) -> DeflateParameters? {
        guard let header, !header.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "," }) else { return nil }
        let extensions = header.split(separator: ",").map { $0.trimmed }.filter { !$0.isEmpty }
        guard offered, extensions.count == 1 else {
            throw WebSocketError(.handshakeRefused, "the server agreed to extensions this client did not offer: \(header)")
        }
        var parts = extensions[0].split(separator: ";").map { $0.trimmed }
        guard parts.first?.lowercased() == "permessage-deflate" else {
            throw WebSocketError(.handshakeRefused, "the server agreed to an extension this client did not offer: \(header)")
        }
        parts.removeFirst()
        var agreed = DeflateParameters()
        var seen = Set<String>()
        for part in parts {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmed }
            let name = pair[0].lowercased()
            var value = pair.count > 1 ? pair[1] : nil
            if let quoted = value, quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") { value = String(quoted.dropFirst().dropLast()) }
            guard seen.insert(name).inserted else { throw refused("repeats \(name)", header) }
            switch name {
            case "server_no_context_takeover":
                guard value == nil else { throw refused("gives server_no_context_takeover a value", header) }
                agreed.serverNoContextTakeover = true
            case "client_no_context_takeover":
                guard value == nil else { throw refused("gives client_no_context_takeover a value", header) }
            case "server_max_window_bits", "client_max_window_bits":
                guard let text = value, text.count <= 2, let bits = Int(text), (8...15).contains(bits), text.first != "0" else {
                    throw refused("gives \(name) a value outside 8…15", header)
                }
                if name == "server_max_window_bits" { agreed.serverMaxWindowBits = bits } else { agreed.clientMaxWindowBits = bits }
            default:
                throw refused("has the parameter \(name), which RFC 7692 does not define", header)
            }
        }
        return agreed
    }

    private static func refused(_ why: String, _ header: String) -> WebSocketError {
        WebSocketError(.handshakeRefused, "the server's permessage-deflate answer \(why): \(header)")
    }
}

extension Substring {
    /// Without spaces and tabs at either end.
    var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
