import BrickSystem
import BrickTransport
import Glibc
import LoopbackServer

/// A command run the way a user runs it from a shell, its standard output and standard error read apart
/// through pipes: the error side also line by line as it comes (``errorLines``), so that a test can act on
/// what the command reports while it runs (interrupt a download once it is under way).
public final class PipedChild: Sendable {
    /// How the command ended and everything it wrote.
    public struct Outcome: Sendable {
        public let status: Int32
        public let output: [UInt8]
        public let error: String
        /// Standard output as UTF-8 text.
        public var text: String { String(decoding: output, as: UTF8.self) }

        public init(status: Int32, output: [UInt8], error: String) {
            self.status = status
            self.output = output
            self.error = error
        }
    }

    public let process: ChildProcess
    /// Each line of standard error, as it is written; finishes at end of file.
    public let errorLines: AsyncStream<String>
    private let collected = Locked<(output: [UInt8], error: [UInt8], done: Bool, waiter: CheckedContinuation<Void, Never>?)>(
        ([], [], false, nil))

    /// Starts `arguments[0]` (a path) with `arguments` and the current environment plus `environment`; its
    /// standard input is a pipe that holds `input` and then ends, or `/dev/null` when `input` is `nil`. With
    /// `terminal`, its standard output is a terminal (a pseudo-terminal whose other side this reads), as
    /// when a user runs it at a prompt: the terminal writes each newline as `\r\n`.
    public init(_ arguments: [String], environment: [String: String] = [:], input: [UInt8]? = nil, terminal: Bool = false) throws(TestServerError) {
        // The children of ChildProcess inherit no descriptor but 0 to 2, so these need no O_CLOEXEC.
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard terminal ? Self.openTerminal(&output) : pipe(&output) == 0 else { throw TestServerError("no pipe or terminal") }
        guard pipe(&errors) == 0 else {
            close(output[0])
            close(output[1])
            throw TestServerError("pipe failed")
        }
        var feed: [Int32] = [-1, -1]
        if let input {
            // Small inputs only (a test's body): they fit the pipe's buffer, so writing them cannot block.
            guard input.count <= 16_384, pipe(&feed) == 0 else {
                [output[0], output[1], errors[0], errors[1]].forEach { close($0) }
                throw TestServerError("no pipe for an input of \(input.count) bytes")
            }
            _ = input.withUnsafeBytes { write(feed[1], $0.baseAddress, $0.count) }
            close(feed[1])
        }
        defer { if feed[0] >= 0 { close(feed[0]) } }
        do {
            process = try ChildProcess(
                arguments, environment: environment, output: .descriptors(output: output[1], error: errors[1]),
                input: feed[0] >= 0 ? feed[0] : nil)
        } catch {
            [output[0], output[1], errors[0], errors[1]].forEach { close($0) }
            throw error
        }
        close(output[1])
        close(errors[1])
        let (lines, continuation) = AsyncStream<String>.makeStream()
        errorLines = lines
        let reading = (output: output[0], error: errors[0])
        do {
            try spawnThread { [collected] in
                Self.read(reading.output, reading.error, into: collected, lines: continuation)
            }
        } catch {
            close(reading.output)
            close(reading.error)
            process.terminate()
            throw TestServerError("no thread to read the command's output")
        }
    }

    /// Runs a command to its end.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], input: [UInt8]? = nil, terminal: Bool = false
    ) async throws(TestServerError) -> Outcome {
        try await PipedChild(arguments, environment: environment, input: input, terminal: terminal).outcome()
    }

    /// A pseudo-terminal: `ends[0]` the side this process reads, `ends[1]` the terminal the child writes to.
    /// Reading the first side fails with `EIO` once the child has closed the second: the end of its output.
    private static func openTerminal(_ ends: inout [Int32]) -> Bool {
        // posix_openpt, unlockpt and ptsname, through the ioctls they wrap (Swift's Glibc does not export them).
        let reading = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard reading >= 0 else { return false }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        let setLock = UInt(0x4004_5431)  // TIOCSPTLCK
        let getNumber = UInt(0x8004_5430)  // TIOCGPTN
        guard ioctl(reading, setLock, &unlock) == 0, ioctl(reading, getNumber, &number) == 0 else {
            close(reading)
            return false
        }
        let writing = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard writing >= 0 else {
            close(reading)
            return false
        }
        ends = [reading, writing]
        return true
    }

    /// Waits for the command to end and for both pipes to reach end of file.
    public func outcome() async -> Outcome {
        let status = await process.exitStatus()
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let resumeNow = collected.withLock { state in
                if state.done { return true }
                state.waiter = waiter
                return false
            }
            if resumeNow { waiter.resume() }
        }
        return collected.withLock { Outcome(status: status, output: $0.output, error: String(decoding: $0.error, as: UTF8.self)) }
    }

    /// Reads both pipes until both end (on a thread of its own: the reads block).
    private static func read(
        _ output: Int32, _ error: Int32,
        into collected: Locked<(output: [UInt8], error: [UInt8], done: Bool, waiter: CheckedContinuation<Void, Never>?)>,
        lines: AsyncStream<String>.Continuation
    ) {
        var descriptors = [pollfd(fd: output, events: Int16(POLLIN), revents: 0), pollfd(fd: error, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65536)
        var pendingLine: [UInt8] = []
        while descriptors.contains(where: { $0.fd >= 0 }) {
            guard poll(&descriptors, nfds_t(descriptors.count), -1) >= 0 || errno == EINTR else { break }
            for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = Glibc.read(descriptors[index].fd, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    close(descriptors[index].fd)
                    descriptors[index].fd = -1
                    continue
                }
                let bytes = buffer[..<count]
                if index == 0 {
                    collected.withLock { $0.output += bytes }
                    continue
                }
                collected.withLock { $0.error += bytes }
                for byte in bytes {
                    if byte == UInt8(ascii: "\n") {
                        lines.yield(String(decoding: pendingLine, as: UTF8.self))
                        pendingLine.removeAll()
                    } else {
                        pendingLine.append(byte)
                    }
                }
            }
        }
        if !pendingLine.isEmpty { lines.yield(String(decoding: pendingLine, as: UTF8.self)) }
        lines.finish()
        let waiter = collected.withLock { state in
            state.done = true
            return state.waiter
        }
        waiter?.resume()
    }
}
