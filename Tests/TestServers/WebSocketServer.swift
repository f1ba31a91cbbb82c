import Glibc

/// `ws_server.py` on a free loopback port: Python's `websockets` as the peer (echo, headers, close,
/// big messages), or, `silent`, a peer that answers the handshake and nothing after it.
public final class WebSocketServer: Sendable {
    public let port: Int
    private let process: ChildProcess
    private let directory: String

    /// Starts the server on a socket this process opened (so it accepts at once).
    public init(silent: Bool = false) throws(TestServerError) {
        let python = Paths.venv + "/bin/python3"
        guard access(python, X_OK) == 0 else {
            throw TestServerError("\(python) is missing: run the README's test command (make test), which sets it up")
        }
        let (fd, port) = try Sockets.listener()
        defer { close(fd) }
        directory = try Paths.scratchDirectory("ws-server")
        let script = Paths.repository + "/Tests/TestServers/ws_server.py"
        process = try ChildProcess([python, script] + (silent ? ["silent"] : []), logPath: directory + "/server.log", inheritedSocket: fd)
        self.port = port
    }

    /// `ws://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> String { "ws://127.0.0.1:\(port)\(path)" }

    public func stop() {
        process.terminate()
        Paths.removeTree(directory)
    }
}
