import BrickTransport
import CNetlink
import Glibc

/// One IP address, as the kernel's route lookup takes it.
struct IPAddress: Hashable, Sendable {
    let family: Int32
    let bytes: [UInt8]

    /// The address written in `text` (`127.0.0.1`, `::1`, with or without brackets), if it is one.
    init?(literal text: String) {
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

    init(family: Int32, bytes: [UInt8]) {
        self.family = family
        self.bytes = bytes
    }

    /// Addresses that stand for "somewhere beyond this machine" (documentation ranges, never contacted):
    /// a route to them means there is a default route.
    static let elsewhere = [IPAddress(literal: "192.0.2.1"), IPAddress(literal: "2001:db8::1")].compactMap { $0 }
}

/// The kernel's view of whether an address can be reached: a route lookup, then the egress interface's state.
enum RouteCheck {
    /// Whether `address` can be reached now: there is a route, its interface is up with carrier.
    static func status(of address: IPAddress) -> ReachabilityStatus {
        var route = brick_route()
        let result = address.bytes.withUnsafeBufferPointer { bytes -> Int32 in
            guard let base = bytes.baseAddress else { return -EINVAL }
            return brick_nl_route_get(address.family, base, &route)
        }
        switch -result {
        case 0: return verdict(route)
        case ENETUNREACH, EHOSTUNREACH, EACCES, EINVAL: return .unreachable
        default: return .unknown
        }
    }

    /// The best status among `addresses`: reachable if any is, unreachable if all are.
    static func status(of addresses: [IPAddress]) -> ReachabilityStatus {
        var sawUnknown = false
        for address in addresses {
            switch status(of: address) {
            case .reachable: return .reachable
            case .unknown: sawUnknown = true
            case .unreachable: break
            }
        }
        return sawUnknown || addresses.isEmpty ? .unknown : .unreachable
    }

    /// A found route serves if it is unicast or local and leaves through an interface that is up and
    /// running (has carrier), and the kernel does not mark it link-down.
    static func verdict(_ route: brick_route) -> ReachabilityStatus {
        let unicast: UInt8 = 1, local: UInt8 = 2
        guard route.route_type == unicast || route.route_type == local else { return .unreachable }
        let linkDown: UInt32 = 16  // RTNH_F_LINKDOWN
        guard route.route_flags & linkDown == 0 else { return .unreachable }
        let needed = UInt32(IFF_UP | IFF_RUNNING)
        guard route.interface_index > 0 else { return .unknown }
        return route.interface_flags & needed == needed ? .reachable : .unreachable
    }

    /// The addresses `host` resolves to (a literal is its own address); `nil` when resolution fails.
    static func resolve(_ host: String) -> [IPAddress]? {
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
