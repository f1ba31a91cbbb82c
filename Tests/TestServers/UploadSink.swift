import Glibc

/// `upload_sink.py` (Python's standard library only) on a free loopback port: it reads request bodies
/// as they stream in and answers with their length and SHA-256, per multipart part too, keeping nothing.
public final class UploadSink: Sendable {
    public let port: Int
    private let process: ChildProcess
    private let directory: String

    /// The one sink of this test process, started on first use and stopped when the process exits.
    public static let shared: Result<UploadSink, TestServerError> = {
        let result = Result { () throws(TestServerError) in try UploadSink() }
        atexit { if case .success(let server) = UploadSink.shared { server.stop() } }
        return result
    }()

    /// Starts the sink on a socket this process opened (so it accepts at once).
    public init() throws(TestServerError) {
        let python = Paths.venv + "/bin/python3"
        guard access(python, X_OK) == 0 else {
            throw TestServerError("\(python) is missing: run the README's test command (make test), which sets it up")
        }
        let (fd, port) = try Sockets.listener()
        defer { close(fd) }
        directory = try Paths.scratchDirectory("upload-sink")
        let log = directory + "/sink.log"
        process = try ChildProcess([python, Paths.repository + "/Tests/TestServers/upload_sink.py"], logPath: log, inheritedSocket: fd)
        self.port = port
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String = "/") -> String { "http://127.0.0.1:\(port)\(path)" }

    public func stop() {
        process.terminate()
        Paths.removeTree(directory)
    }
}
