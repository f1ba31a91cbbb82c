import Glibc

/// tinyproxy (Debian's, a proxy no one here wrote) on a free loopback port, in the foreground with its
/// log in its own directory: for tests that go through a proxy's `CONNECT` tunnel.
public final class Tinyproxy: Sendable {
    public let port: Int
    private let process: ChildProcess
    private let directory: String

    public init() throws(TestServerError) {
        guard let tinyproxy = Paths.executable("tinyproxy") else {
            throw TestServerError("tinyproxy is missing: run the README's test command (make test), which installs it")
        }
        directory = try Paths.scratchDirectory("tinyproxy")
        chmod(directory, 0o777)  // it writes its log as `nobody` when started as root
        port = try Sockets.closedPort()
        // No `ConnectPort` line: a tunnel may go to any port (the test's server is on a free one).
        let user = getuid() == 0 ? "User nobody\nGroup nogroup\n" : ""
        try Paths.write(
            "\(user)Port \(port)\nListen 127.0.0.1\nTimeout 60\nMaxClients 32\nLogLevel Connect\nLogFile \"\(directory)/tinyproxy.log\"\n",
            to: directory + "/tinyproxy.conf")
        process = try ChildProcess([tinyproxy, "-d", "-c", directory + "/tinyproxy.conf"], logPath: directory + "/stdout.log")
        try Sockets.waitUntilAccepting(port: port, child: process)
    }

    /// `http://127.0.0.1:<port>`, the proxy's URL.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// What it logged (its `CONNECT` lines among them).
    public var log: String { Paths.read(directory + "/tinyproxy.log") }

    /// Stops the proxy and removes its directory.
    public func stop() {
        process.terminate()
        Paths.removeTree(directory)
    }
}
