import Glibc

/// `ws_server.py` on a free loopback port: Python's `websockets` as the peer (echo, headers, close,
/// big messages), or, `silent`, a peer that answers the handshake and nothing after it.
public final class WebSocketServer: Sendable {
    public let port: Int
    private let process: ChildProcess
    private let directory: String

    /// Starts the server on a socket this process opened (so it accepts at once): a free loopback port, or
    /// the Unix socket `unixSocket` (``port`` is then 0).
    public init(silent: Bool = false, unixSocket: String? = nil) throws(TestServerError) {
        let python = Paths.venv + "/bin/python3"
        guard access(python, X_OK) == 0 else {
            throw TestServerError("\(python) is missing: run the README's test command (make test), which sets it up")
        }
        let (fd, port): (Int32, Int)
        if let unixSocket { (fd, port) = (try Self.unixListener(unixSocket), 0) } else { (fd, port) = try Sockets.listener() }
        defer { close(fd) }
        directory = try Paths.scratchDirectory("ws-server")
        let script = Paths.repository + "/Tests/TestServers/ws_server.py"
        process = try ChildProcess([python, script] + (silent ? ["silent"] : []), logPath: directory + "/server.log", inheritedSocket: fd)
        self.port = port
    }

    private static func unixListener(_ path: String) throws(TestServerError) -> Int32 {
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard fd >= 0, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw TestServerError("cannot make a Unix socket at \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // nginx's workers (another user when the tests run as root) connect to it too.
        guard bound == 0, chmod(path, 0o777) == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw TestServerError("cannot listen on \(path)")
        }
        return fd
    }

    /// `ws://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> String { "ws://127.0.0.1:\(port)\(path)" }

    public func stop() {
        process.terminate()
        if getenv("BRICK_KEEP_SERVER_LOGS") == nil { Paths.removeTree(directory) }
    }
}
