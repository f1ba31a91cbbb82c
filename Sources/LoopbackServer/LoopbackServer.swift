import BrickSystem
import BrickTransport
import Glibc
import Synchronization

/// A small HTTP/1.1 server on a loopback port, with keep-alive and one thread per connection.
///
/// It serves the demo (no internet needed) and tests that need a server of their own. It is not a
/// production server: requests are read whole, bodies by `Content-Length` only.
public final class LoopbackServer: Sendable {
    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    private let handler: @Sendable (ServerRequest) -> ServerResponse
    /// What ``stop()`` may shut down: the listener until the accept loop closes it, and the open connections.
    /// Shut down under this lock only: a descriptor is taken out before it is closed, so a number that
    /// another socket of the process may already reuse is never touched.
    private let open = Locked(OpenDescriptors())
    private struct OpenDescriptors {
        var listener = true
        var connections: Set<Int32> = []
    }
    private let stopped = Atomic<Bool>(false)

    /// Listens on 127.0.0.1 on a free port and starts serving with `handler`.
    /// - Throws: ``ServerError`` when the socket cannot be set up.
    public init(handler: @escaping @Sendable (ServerRequest) -> ServerResponse) throws(ServerError) {
        let (fd, port) = try Self.listen()
        self.listener = fd
        self.port = port
        self.handler = handler
        try spawnThread { [self] in acceptLoop() }
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops listening and closes every open connection.
    public func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        open.withLock { open in
            if open.listener { shutdown(listener, Int32(SHUT_RDWR)) }
            for fd in open.connections { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    deinit { stop() }

    private func acceptLoop() {
        while !stopped.load(ordering: .sequentiallyConsistent) {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break
            }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            open.withLock { _ = $0.connections.insert(fd) }
            do { try spawnThread { [self] in serve(fd) } } catch { forget(fd) }
        }
        open.withLock { $0.listener = false }
        close(listener)
    }

    /// Takes a connection out of ``open``, then closes it.
    private func forget(_ fd: Int32) {
        open.withLock { _ = $0.connections.remove(fd) }
        close(fd)
    }

    private func serve(_ fd: Int32) {
        defer { forget(fd) }
        var parser = RequestParser()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            do {
                while let request = try parser.next() {
                    let response = handler(request)
                    let close = request.header("Connection")?.lowercased() == "close"
                    guard Self.write(fd, Self.serialize(response, close: close)), !close else { return }
                }
            } catch {
                _ = Self.write(fd, Self.serialize(.text("bad request\n", status: 400), close: true))
                return
            }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            parser.append(chunk[..<count])
        }
    }

    static func serialize(_ response: ServerResponse, close: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\n"
        if close { head += "Connection: close\r\n" }
        head += "\r\n"
        return Array(head.utf8) + response.body
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        default: "Status"
        }
    }

    private static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private static func listen() throws(ServerError) -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError(step: "socket", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 128) == 0 else {
            let failure = ServerError(step: "bind/listen", errno: errno)
            close(fd)
            throw failure
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// Why the loopback server could not start.
public struct ServerError: Error, Sendable, CustomStringConvertible {
    public let step: String
    public let errno: Int32
    public var description: String { "\(step) failed: \(String(cString: strerror(errno)))" }
}

/// Runs `body` on a new detached thread (servers of tests use it too).
public func spawnThread(_ body: @escaping @Sendable () -> Void) throws(ServerError) {
    let result = startDetachedThread(named: "loopback-server") { onNewThread in if onNewThread { body() } }
    guard result == 0 else { throw ServerError(step: "pthread_create", errno: result) }
}
