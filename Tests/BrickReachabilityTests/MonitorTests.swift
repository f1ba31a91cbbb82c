@testable import BrickReachability
import BrickSystem
import CNetlink
import Glibc
import Testing

/// The monitor's pieces on this machine's own network, without taking anything down.
struct MonitorTests {
    @Test(arguments: [("127.0.0.1", AF_INET, 4), ("::1", AF_INET6, 16), ("[::1]", AF_INET6, 16), ("2001:db8::1", AF_INET6, 16)])
    func ipLiteralsAreRecognised(text: String, family: Int32, length: Int) {
        let address = IPAddress(literal: text)
        #expect(address?.family == family)
        #expect(address?.bytes.count == length)
    }

    @Test(arguments: ["localhost", "example.com", "127.0.0", "1.2.3.4.5", ""])
    func namesAreNotLiterals(text: String) {
        #expect(IPAddress(literal: text) == nil)
    }

    @Test func aRouteServesOnlyIfUnicastOrLocalAndItsInterfaceIsUpWithCarrier() {
        let upRunning = UInt32(IFF_UP | IFF_RUNNING)
        func route(type: UInt8, flags: UInt32 = 0, interface: Int32 = 1, interfaceFlags: UInt32) -> brick_route {
            brick_route(interface_index: interface, interface_flags: interfaceFlags, route_type: type, route_flags: flags)
        }
        #expect(RouteCheck.verdict(route(type: 1, interfaceFlags: upRunning)) == .reachable)
        #expect(RouteCheck.verdict(route(type: 2, interfaceFlags: upRunning)) == .reachable)
        #expect(RouteCheck.verdict(route(type: 1, interfaceFlags: UInt32(IFF_UP))) == .unreachable)  // no carrier
        #expect(RouteCheck.verdict(route(type: 1, interfaceFlags: 0)) == .unreachable)  // down
        #expect(RouteCheck.verdict(route(type: 1, flags: 16, interfaceFlags: upRunning)) == .unreachable)  // linkdown
        #expect(RouteCheck.verdict(route(type: 6, interfaceFlags: upRunning)) == .unreachable)  // blackhole
        #expect(RouteCheck.verdict(route(type: 1, interface: 0, interfaceFlags: 0)) == .unknown)
    }

    @Test func loopbackIsReachableAndLocalhostResolves() async throws {
        let monitor = try NetlinkReachability()
        defer { monitor.stop() }
        #expect(await monitor.status(of: "127.0.0.1") == .reachable)
        #expect(await monitor.status(of: "LOCALHOST") == .reachable)
        // Known without suspending once evaluated, in any case of its letters; never asked, not known.
        #expect(monitor.knownStatus(of: "localhost") == .reachable)
        #expect(monitor.knownStatus(of: "127.0.0.1") == .reachable)
        #expect(monitor.knownStatus(of: "127.0.0.2") == nil)
        let loopback = try #require(IPAddress(literal: "127.0.0.1"))
        #expect(RouteCheck.resolve("localhost")?.contains(loopback) == true)
    }

    @Test func aStoppedMonitorKnowsNothingAndEndsItsSubscriptions() async throws {
        let monitor = try NetlinkReachability()
        let changes = monitor.changes()
        monitor.stop()
        for await _ in changes {}  // ends: the subscription is finished
        #expect(await monitor.status(of: "127.0.0.1") == .unknown)
        var ended = monitor.changes().makeAsyncIterator()
        #expect(await ended.next() == nil)
    }
}
