import BrickSystem
import BrickTransport
import Glibc
import LoopbackServer

/// A small forward proxy on a free loopback port, for tests of the proxy options: `CONNECT host:port`
/// opens a tunnel (for https), and a request in absolute form (`GET http://host:port/path`) is passed on
/// to its server in origin form with `Connection: close`, without the `Proxy-*` fields. One request per
/// client connection. With ``credentials``, a request without `Proxy-Authorization: Basic <them>` gets
/// 407. Every request line it reads is kept, in order (``requests``), with whether it carried credentials.
public final class ForwardProxy: Sendable {
    /// One request the proxy read.
    public struct Seen: Sendable, Equatable {
        /// `CONNECT localhost:443` or `GET http://127.0.0.1:8080/small`.
        public let line: String
        /// The `Proxy-Authorization` field's value, if any.
        public let proxyAuthorization: String?
    }

    public let port: Int
    /// `user:password` the proxy asks for, or `nil` for none.
    public let credentials: String?
    /// When set, every name resolves to 127.0.0.1 and every port to this one: a request for
    /// `http://bank.co.uk/` reaches the test's server there, as a browser test's resolver would make it.
    public let everyHostTo: Int?
    private let state = Locked<(seen: [Seen], listener: Int32, connections: Set<Int32>)>(([], -1, []))

    /// Listens on a free loopback port.
    public init(credentials: String? = nil, everyHostTo: Int? = nil) throws(TestServerError) {
        let (fd, port) = try Sockets.listener()
        self.port = port
        self.credentials = credentials
        self.everyHostTo = everyHostTo
        state.withLock { $0.listener = fd }
        do { try spawnThread { [self] in acceptLoop(fd) } } catch {
            close(fd)
            throw TestServerError("cannot start the proxy's thread")
        }
    }

    /// `http://127.0.0.1:<port>`.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Every request read so far, oldest first.
    public var requests: [Seen] { state.withLock { $0.seen } }

    /// Stops listening and closes every connection.
    public func stop() {
        state.withLock { state in
            for fd in state.connections { shutdown(fd, Int32(SHUT_RDWR)) }
            if state.listener >= 0 { shutdown(state.listener, Int32(SHUT_RDWR)) }
        }
    }

    deinit { stop() }

    private func acceptLoop(_ listener: Int32) {
        defer { close(listener) }
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            state.withLock { _ = $0.connections.insert(fd) }
            do { try spawnThread { [self] in serve(fd) } } catch { finish(fd) }
        }
    }

    private func finish(_ fd: Int32) {
        state.withLock { _ = $0.connections.remove(fd) }
        close(fd)
    }

    private func serve(_ client: Int32) {
        defer { finish(client) }
        guard let (head, rest) = Self.readHead(client) else { return }
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let requestLine = lines.removeFirst()
        let fields = lines.filter { !$0.isEmpty }
        let authorization = fields.first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { String($0.drop { $0 != ":" }.dropFirst()).trimmingSpaces }
        state.withLock { $0.seen.append(Seen(line: requestLine.split(separator: " ").prefix(2).joined(separator: " "), proxyAuthorization: authorization)) }
        if let credentials, authorization != "Basic " + Self.base64(credentials) {
            Self.send(client, "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"brick\"\r\n"
                + "Content-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        let parts = requestLine.split(separator: " ")
        guard parts.count == 3 else { return }
        if parts[0] == "CONNECT" {
            guard let upstream = Self.connect(to: everyHostTo.map { "127.0.0.1:\($0)" } ?? String(parts[1])) else {
                Self.send(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
                return
            }
            defer { close(upstream) }
            Self.send(client, "HTTP/1.1 200 Connection established\r\n\r\n")
            if !rest.isEmpty { Self.send(upstream, rest) }
            Self.relay(client, upstream)
            return
        }
        // Absolute form: http://host:port/path → origin form to host:port.
        guard parts[1].hasPrefix("http://") else { return }
        let target = parts[1].dropFirst("http://".count)
        let authority = String(target.prefix { $0 != "/" })
        let path = target.dropFirst(authority.count)
        let destination = everyHostTo.map { "127.0.0.1:\($0)" } ?? (authority.contains(":") ? authority : authority + ":80")
        guard let upstream = Self.connect(to: destination) else {
            Self.send(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        defer { close(upstream) }
        let kept = fields.filter { field in
            let name = field.lowercased()
            return !name.hasPrefix("proxy-") && !name.hasPrefix("connection:")
        }
        let forwarded = "\(parts[0]) \(path.isEmpty ? "/" : path) \(parts[2])\r\n" + kept.map { $0 + "\r\n" }.joined()
            + "Connection: close\r\n\r\n"
        Self.send(upstream, Array(forwarded.utf8) + rest)
        Self.relay(client, upstream)
    }

    /// Reads up to the blank line; returns the head (without it) and any bytes after it.
    private static func readHead(_ fd: Int32) -> (String, [UInt8])? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65536 {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return nil }
            bytes += buffer[..<count]
            if let end = bytes.indices.dropLast(3).first(where: { bytes[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }) {
                return (String(decoding: bytes[..<end], as: UTF8.self), Array(bytes[(end + 4)...]))
            }
        }
        return nil
    }

    /// Copies bytes both ways until either side closes.
    private static func relay(_ a: Int32, _ b: Int32) {
        var descriptors = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            guard poll(&descriptors, 2, -1) > 0 else {
                if errno == EINTR { continue }
                return
            }
            for index in 0..<2 where descriptors[index].revents != 0 {
                let count = read(descriptors[index].fd, &buffer, buffer.count)
                guard count > 0 else { return }
                send(descriptors[1 - index].fd, Array(buffer[..<count]))
            }
        }
    }

    private static func send(_ fd: Int32, _ text: String) { send(fd, Array(text.utf8)) }

    private static func send(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// A TCP connection to `host:port` (an IPv4 address or `localhost`), or `nil`.
    private static func connect(to authority: String) -> Int32? {
        guard let colon = authority.lastIndex(of: ":"), let port = UInt16(authority[authority.index(after: colon)...]) else { return nil }
        let host = authority[..<colon] == "localhost" ? "127.0.0.1" : String(authority[..<colon])
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Standard base64 of `text`'s UTF-8.
    static func base64(_ text: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        let bytes = Array(text.utf8)
        var output = ""
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = bytes[start..<min(start + 3, bytes.count)]
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for index in 0..<4 { output.append(index <= chunk.count ? alphabet[(value >> (18 - 6 * index)) & 63] : "=") }
        }
        return output
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
