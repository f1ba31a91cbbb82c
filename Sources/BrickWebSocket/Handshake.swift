import BrickTransport
import FoundationEssentials

/// The opening handshake (RFC 6455 §4.1): the fields a client adds to its `GET`, and the checks its answer
/// must pass — a `101` and nothing else, `Upgrade: websocket`, `Connection: upgrade`, the accept value
/// for this key, a subprotocol only among those offered, an extension only if offered.
package struct Handshake: Sendable {
    /// Sixteen random bytes, base64: `Sec-WebSocket-Key`.
    let key: String
    let options: WebSocketOptions

    init(options: WebSocketOptions) {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        key = Data(bytes).base64EncodedString()
        self.options = options
    }

    /// What a server that read this key answers in `Sec-WebSocket-Accept`.
    package static func accept(for key: String) -> String {
        Data(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }

    /// Adds the handshake's fields to `headers` (those a caller set for the same names are replaced);
    /// `Upgrade` and `Connection` are the transport's (``UpgradeSlot/upgradeProtocol``).
    func addFields(to headers: inout HTTPHeaders) {
        headers["Sec-WebSocket-Key"] = key
        headers["Sec-WebSocket-Version"] = "13"
        if !options.subprotocols.isEmpty { headers["Sec-WebSocket-Protocol"] = options.subprotocols.joined(separator: ", ") }
        if options.compression { headers["Sec-WebSocket-Extensions"] = DeflateParameters.offer }
    }

    /// What the answer agreed to: the subprotocol and the compression.
    /// - Throws: ``WebSocketError/Kind/handshakeRefused``, saying which check failed.
    func check(_ head: ResponseHead) throws(WebSocketError) -> (subprotocol: String?, deflate: DeflateParameters?) {
        func refuse(_ why: String) -> WebSocketError { WebSocketError(.handshakeRefused, why) }
        guard head.status == 101 else { throw refuse("the server answered \(head.status), not 101 Switching Protocols") }
        guard head.headers["Upgrade"]?.lowercased() == "websocket" else {
            throw refuse("the 101 has no `Upgrade: websocket` (it has \(head.headers["Upgrade"] ?? "none"))")
        }
        let connection = head.headers.values(for: "Connection").flatMap { $0.split(separator: ",") }.map { $0.trimmed.lowercased() }
        guard connection.contains("upgrade") else { throw refuse("the 101 has no `Connection: Upgrade`") }
        guard head.headers["Sec-WebSocket-Accept"] == Self.accept(for: key) else {
            throw refuse("the 101's Sec-WebSocket-Accept is not the one for this client's key: not a WebSocket server, or a proxy's cached answer")
        }
        var subprotocol: String?
        if let chosen = head.headers["Sec-WebSocket-Protocol"] {
            guard options.subprotocols.contains(chosen) else {
                throw refuse("the server chose the subprotocol \(chosen), which was not offered (\(options.subprotocols.joined(separator: ", ")))")
            }
            subprotocol = chosen
        }
        let extensions = head.headers.values(for: "Sec-WebSocket-Extensions").joined(separator: ", ")
        let deflate = try DeflateParameters.agreed(extensions.isEmpty ? nil : extensions, offered: options.compression)
        return (subprotocol, deflate)
    }

    /// The http or https URL of a ws or wss one (any other is left as it is): the handshake is an HTTP request.
    static func httpURL(_ url: String) -> String {
        let lowered = url.prefix(6).lowercased()
        if lowered.hasPrefix("wss://") { return "https://" + url.dropFirst(6) }
        if lowered.hasPrefix("ws://") { return "http://" + url.dropFirst(5) }
        return url
    }
}
