import Glibc

/// PostgreSQL (Debian's) in a scratch directory, listening only on a Unix socket in that directory, with
/// one superuser, `brick`, whose password is checked (SCRAM), so that tests can give a wrong one. As root
/// the server runs as the unprivileged `postgres` user (it refuses to run as root).
public final class PostgresServer: Sendable {
    public let directory: String
    /// The password of the `brick` user.
    public let password = "pg-\(UInt32.random(in: 100_000...999_999))-secret"
    private let binaries: String

    /// The one server of this test process, started on first use and stopped when the process exits.
    public static let shared: Result<PostgresServer, TestServerError> = {
        let result = Result { () throws(TestServerError) in try PostgresServer() }
        atexit {
            guard case .success(let server) = PostgresServer.shared else { return }
            server.stop()
            Paths.removeTree(server.directory)
        }
        return result
    }()

    /// `initdb`, then starts the server (``start()``).
    public init() throws(TestServerError) {
        guard let binaries = Self.binaries() else {
            throw TestServerError("PostgreSQL's server is missing: run the README's test command (make test), which installs it")
        }
        self.binaries = binaries
        directory = try Paths.scratchDirectory("postgres")
        try Paths.write(password + "\n", to: directory + "/password")
        if getuid() == 0 {
            guard let user = getpwnam("postgres") else { throw TestServerError("there is no postgres user to run the server as") }
            chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
            chown(directory + "/password", user.pointee.pw_uid, user.pointee.pw_gid)
        }
        try run(["initdb", "-D", directory + "/data", "-U", "brick", "--auth=scram-sha-256", "--pwfile=" + directory + "/password",
                 "--encoding=UTF8", "--locale=C", "--no-sync"])
        try start()
    }

    /// The connection string of the `brick` user to the `postgres` database, with its password.
    public var connectionString: String { "host=\(directory) port=5432 user=brick dbname=postgres password=\(password)" }

    /// Starts the server and returns once it accepts connections (`pg_ctl -w` waits for that).
    public func start() throws(TestServerError) {
        try run(["pg_ctl", "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-o",
                 "-k \(directory) -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c max_connections=300", "start"])
    }

    /// Stops the server (fast: open connections are cut, as when a database goes away).
    public func stop() {
        try? run(["pg_ctl", "-D", directory + "/data", "-m", "fast", "-w", "stop"])
    }

    /// The server's log.
    public var log: String { Paths.read(directory + "/server.log") }

    /// Runs one of the server's programs, as `postgres` when this process is root.
    private func run(_ arguments: [String]) throws(TestServerError) {
        let program = binaries + "/" + arguments[0]
        let command = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] + arguments.dropFirst() : [program] + arguments.dropFirst()
        try ChildProcess.run(command, logPath: directory + "/commands.log")
    }

    /// The newest server Debian installed: `/usr/lib/postgresql/<version>/bin`.
    private static func binaries() -> String? {
        guard let listing = opendir("/usr/lib/postgresql") else { return nil }
        defer { closedir(listing) }
        var versions: [Int] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let version = Int(name), access("/usr/lib/postgresql/\(name)/bin/initdb", X_OK) == 0 { versions.append(version) }
        }
        return versions.max().map { "/usr/lib/postgresql/\($0)/bin" }
    }
}
