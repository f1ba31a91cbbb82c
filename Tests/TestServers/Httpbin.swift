import Glibc

/// httpbin (from PyPI, in the project's venv) served by gunicorn on a free loopback port.
///
/// The test process opens the listening socket itself and hands it to gunicorn (`--bind fd://3`), so the
/// server is reachable as soon as it is started: connections wait in the socket's backlog.
public final class Httpbin: Sendable {
    public let port: Int
    private let process: ChildProcess
    private let directory: String

    /// The one httpbin of this test process, started on first use and stopped when the process exits.
    public static let shared: Result<Httpbin, TestServerError> = {
        let result = Result { () throws(TestServerError) in try Httpbin() }
        atexit { if case .success(let server) = Httpbin.shared { server.stop() } }
        return result
    }()

    /// Starts gunicorn with httpbin's app.
    public init() throws(TestServerError) {
        let gunicorn = Paths.venv + "/bin/gunicorn"
        guard access(gunicorn, X_OK) == 0 else {
            throw TestServerError("\(gunicorn) is missing: run the README's test command (make test), which sets it up")
        }
        let (fd, port) = try Sockets.listener()
        defer { close(fd) }
        directory = try Paths.scratchDirectory("httpbin")
        let log = directory + "/gunicorn.log"
        process = try ChildProcess(
            [gunicorn, "--bind", "fd://3", "--worker-class", "gthread", "--workers", "2", "--threads", "16",
             "--keep-alive", "30", "--log-level", "warning", "httpbin:app"],
            logPath: log, inheritedSocket: fd)
        self.port = port
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    public func stop() {
        process.terminate()
        Paths.removeTree(directory)
    }
}
