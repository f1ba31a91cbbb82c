#if canImport(Glibc)
import Glibc
#else
#error("BrickSystem reaches the operating system through Glibc: another system needs its own branch here")
#endif

/// Opens a socket close-on-exec, atomically (`SOCK_CLOEXEC`): the descriptor, or -1.
package func openSocketClosedOnExec(family: Int32, type: Int32, protocol: Int32) -> Int32 {
    socket(family, type | Int32(SOCK_CLOEXEC.rawValue), `protocol`)
}

/// One IP address, as the kernel's route lookup takes it: its family (`AF_INET` or `AF_INET6`) and its bytes
/// in network order.
package struct IPAddress: Hashable, Sendable {
    /// `AF_INET` or `AF_INET6`.
    package let family: Int32
    /// 4 or 16 bytes, in network order.
    package let bytes: [UInt8]

    /// An address of `family` made of `bytes`.
    package init(family: Int32, bytes: [UInt8]) {
        self.family = family
        self.bytes = bytes
    }

    /// The address written in `text` (`127.0.0.1`, `::1`, with or without brackets), if it is one.
    package init?(literal text: String) {
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            family = AF_INET
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, bare, &v6) == 1 else { return nil }
        family = AF_INET6
        bytes = withUnsafeBytes(of: &v6) { Array($0) }
    }

    /// The addresses `host` resolves to (a literal is its own address), each once; `nil` when resolution
    /// fails.
    package static func resolve(_ host: String) -> [IPAddress]? {
        if let literal = IPAddress(literal: host) { return [literal] }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let socketAddress = entry.pointee.ai_addr {
                switch entry.pointee.ai_family {
                case AF_INET:
                    socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                        var raw = v4.pointee.sin_addr
                        addresses.append(IPAddress(family: AF_INET, bytes: withUnsafeBytes(of: &raw) { Array($0) }))
                    }
                case AF_INET6:
                    socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                        var raw = v6.pointee.sin6_addr
                        addresses.append(IPAddress(family: AF_INET6, bytes: withUnsafeBytes(of: &raw) { Array($0) }))
                    }
                default: break
                }
            }
            cursor = entry.pointee.ai_next
        }
        var seen = Set<IPAddress>()
        return addresses.filter { seen.insert($0).inserted }
    }
}

/// A network interface's flags (`IFF_UP | IFF_RUNNING`): up, and with carrier.
package let interfaceUpAndRunning = UInt32(IFF_UP | IFF_RUNNING)
