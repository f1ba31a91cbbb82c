import BrickSystem
import BrickTransport
import CNetlink

extension IPAddress {
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
            guard let base = bytes.baseAddress else { return -SystemError.invalid.code }
            return brick_nl_route_get(address.family, base, &route)
        }
        switch -result {
        case 0: return verdict(route)
        case SystemError.networkUnreachable.code, SystemError.hostUnreachable.code, SystemError.accessDenied.code,
            SystemError.invalid.code:
            return .unreachable
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
        let needed = interfaceUpAndRunning
        guard route.interface_index > 0 else { return .unknown }
        return route.interface_flags & needed == needed ? .reachable : .unreachable
    }

    /// The addresses `host` resolves to (a literal is its own address); `nil` when resolution fails.
    static func resolve(_ host: String) -> [IPAddress]? { IPAddress.resolve(host) }
}
