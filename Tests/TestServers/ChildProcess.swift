import Glibc
import LoopbackServer

/// A helper process (a server, openssl) started with `posix_spawn`, an empty signal mask and default
/// signal actions, so that it obeys SIGTERM even when spawned from a Swift concurrency thread.
public final class ChildProcess: Sendable {
    public let pid: Int32

    /// Starts `arguments[0]` (a path) with `arguments`, the current environment plus `environment`, output
    /// to `logPath`, and `inheritedSocket` (if any) as file descriptor 3.
    public convenience init(_ arguments: [String], environment: [String: String] = [:], logPath: String,
                            inheritedSocket: Int32? = nil) throws(TestServerError) {
        try self.init(arguments, environment: environment, output: .log(logPath), inheritedSocket: inheritedSocket)
    }

    /// Where a child's standard output and error go.
    public enum Output: Sendable {
        /// Both appended to the file at this path.
        case log(String)
        /// Each to a descriptor of the parent (the write ends of pipes), duplicated into the child.
        case descriptors(output: Int32, error: Int32)
    }

    /// Starts `arguments[0]` (a path) with `arguments`, the current environment plus `environment`, its
    /// standard output and error to `output`, `inheritedSocket` (if any) as file descriptor 3, and
    /// `input` (the read end of a pipe of the parent) as standard input, else `/dev/null`: never the test
    /// run's own, which may be a pipe that never ends.
    public init(_ arguments: [String], environment: [String: String] = [:], output: Output,
                inheritedSocket: Int32? = nil, input: Int32? = nil) throws(TestServerError) {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch output {
        case .log(let logPath):
            posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .descriptors(let standardOutput, let standardError):
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
            posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let inheritedSocket { posix_spawn_file_actions_adddup2(&actions, inheritedSocket, 3) }
        // Nothing else is inherited: a child that kept a copy of a test's socket (a fault server's connection,
        // a client's) would keep that connection open after the test closed it, until the child exits.
        // Atomic, so it also covers what other threads open meanwhile (listing /proc/self/fd first does not).
        guard let closeFrom = Self.closeFrom else {
            throw TestServerError("glibc 2.34 or later is needed (posix_spawn_file_actions_addclosefrom_np)")
        }
        _ = closeFrom(&actions, inheritedSocket == nil ? 3 : 4)

        var merged: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") { merged[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
            cursor += 1
        }
        merged.merge(environment) { $1 }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw TestServerError("cannot start \(arguments[0]): \(String(cString: strerror(result)))") }
        self.pid = pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module does
    /// not export: looked up at run time.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Waits for the process to end and returns its exit status. Blocks the calling thread: tests use
    /// ``exitStatus()``.
    @discardableResult
    public func wait() -> Int32 { Self.status(of: waitForStatus()) }

    /// Waits for the process to end, on a thread of its own, and returns its exit status. A test must not
    /// block a thread of Swift's cooperative pool while a child runs: with two cores the pool has two
    /// threads, and two long children (a compiler, a 4 GiB download) would stall every other test.
    public func exitStatus() async -> Int32 { Self.status(of: await termination()) }

    /// How the process ended, waited for on a thread of its own (see ``exitStatus()``).
    public func termination() async -> Termination {
        await withCheckedContinuation { continuation in
            do {
                try spawnThread { continuation.resume(returning: self.waitForStatus()) }
            } catch {
                continuation.resume(returning: waitForStatus())  // no thread to spare: block this one
            }
        }
    }

    private static func status(of termination: Termination) -> Int32 {
        switch termination {
        case .exited(let code): code
        case .signalled(let signal): 128 + signal
        }
    }

    /// How a process ended.
    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Waits for the process to end and tells how it ended.
    public func waitForStatus() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    /// Sends SIGTERM and waits for the process to end.
    public func terminate() {
        kill(pid, SIGTERM)
        wait()
    }

    /// Runs a command to its end; throws unless it exits with 0.
    public static func run(_ arguments: [String], logPath: String = "/dev/null") throws(TestServerError) {
        let status = try ChildProcess(arguments, logPath: logPath).wait()
        guard status == 0 else { throw TestServerError("\(arguments.joined(separator: " ")) exited with \(status)") }
    }
}

/// Why a test server could not be started.
public struct TestServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
