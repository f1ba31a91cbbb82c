import BrickSystem
import Glibc

/// Loopback sockets for tests: listeners on free ports, closed ports, a listener that never accepts.
public enum Sockets {
    /// A socket bound to 127.0.0.1 on `port` (a free one when 0) and listening; returns the descriptor and
    /// the port.
    public static func listener(port: Int = 0, backlog: Int32 = 128) throws(TestServerError) -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestServerError("socket failed") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, backlog) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else {
            close(fd)
            throw TestServerError("bind/listen failed: \(String(cString: strerror(errno)))")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A port that refuses connections for as long as the returned descriptor stays open: bound, never
    /// listening. Unlike ``closedPort()``, no other server of the test process can take the port meanwhile
    /// (a parallel test's server once did, and the "refused" request was answered). Close it when done.
    ///
    /// - Parameter port: The port to hold (0: any free one). A given port is bound with `SO_REUSEADDR`, so that
    ///   a server that stopped listening on it can hold it, and listen on it again while it is held.
    public static func refusingPort(_ port: Int = 0) throws(TestServerError) -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestServerError("socket failed") }
        if port != 0 {
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ok else {
            close(fd)
            throw TestServerError("bind failed: \(String(cString: strerror(errno)))")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A port on which nothing listens (bound, then closed): connecting is refused, unless another socket
    /// takes the port meanwhile (prefer ``refusingPort()`` in tests).
    public static func closedPort() throws(TestServerError) -> Int {
        let (fd, port) = try listener()
        close(fd)
        return port
    }

    /// The descriptors open in this process now, from /proc/self/fd (the library's own reader, which reads
    /// each name in place).
    public static func openDescriptors() -> [Int32] { OpenDescriptors.current().sorted() }

    /// The remote port of a connected IPv4 socket, or `nil` for anything else.
    public static func peerPort(of descriptor: Int32) -> Int? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
        }
        guard result == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` right now.
    public static func accepts(port: Int) -> Bool {
        guard let fd = connection(to: port) else { return false }
        close(fd)
        return true
    }

    /// A TCP connection to 127.0.0.1:`port`, which the caller closes; `nil` when none could be made.
    private static func connection(to port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Sends `request` to 127.0.0.1:`port` on a new connection and reads the answer until the server closes
    /// it (give a request that asks it to: HTTP/1.0 without keep-alive); the answer, or `nil` when the
    /// connection failed.
    public static func roundTrip(port: Int, request: String) -> [UInt8]? {
        guard let fd = connection(to: port) else { return nil }
        defer { close(fd) }
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return nil }
            sent += count
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return count == 0 ? answer : nil }
            answer += buffer[..<count]
        }
    }

    /// Waits until `port` accepts connections or `child` has exited, polling the condition itself.
    public static func waitUntilAccepting(port: Int, child: ChildProcess, within seconds: Int = 30) throws(TestServerError) {
        let deadline = monotonicSeconds() + Double(seconds)
        while !accepts(port: port) {
            var status: Int32 = 0
            if waitpid(child.pid, &status, WNOHANG) == child.pid { throw TestServerError("the server exited at start") }
            guard monotonicSeconds() < deadline else { throw TestServerError("port \(port) never accepted") }
            sched_yield()
            usleep(5_000)  // a polling interval while re-checking the real condition, not a wait for it
        }
    }

    /// A listener with a backlog of one that never accepts, its queue filled, so that the kernel drops
    /// further SYNs: a connection attempt to it hangs until the client's connect timeout.
    public static func blackhole() throws(TestServerError) -> (port: Int, close: @Sendable () -> Void) {
        let (fd, port) = try listener(backlog: 0)
        var fillers: [Int32] = []
        for _ in 0..<8 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            fillers.append(client)
        }
        let all = fillers + [fd]
        return (port, { all.forEach { _ = Glibc.close($0) } })
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
