import Glibc

/// mitmproxy's `mitmdump` (from PyPI, in the project's venv) as a forward proxy on a free loopback port,
/// saving the exchanges it carried as a HAR file (its `hardump` option) when it stops.
public final class Mitmproxy: Sendable {
    public let port: Int
    /// Where the HAR file is written when the proxy stops.
    public let harPath: String
    private let process: ChildProcess
    private let directory: String

    public init() throws(TestServerError) {
        let mitmdump = Paths.venv + "/bin/mitmdump"
        guard access(mitmdump, X_OK) == 0 else {
            throw TestServerError("\(mitmdump) is missing: run the README's test command (make test), which sets it up")
        }
        directory = try Paths.scratchDirectory("mitmproxy")
        harPath = directory + "/session.har"
        port = try Sockets.closedPort()
        process = try ChildProcess(
            [mitmdump, "--listen-host", "127.0.0.1", "--listen-port", String(port), "--set", "hardump=" + harPath,
             "--set", "confdir=" + directory, "-q"],
            logPath: directory + "/mitmdump.log")
        try Sockets.waitUntilAccepting(port: port, child: process)
    }

    /// `http://127.0.0.1:<port>`, the proxy's URL.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Stops the proxy (SIGTERM: it writes the HAR file as it shuts down) and returns the file's path.
    @discardableResult
    public func stop() -> String {
        process.terminate()
        return harPath
    }

    /// Removes the proxy's directory (its HAR file included).
    public func removeFiles() { Paths.removeTree(directory) }
}
