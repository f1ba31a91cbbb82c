import BrickSystem
public import BrickTransport
import CNetlink
import Synchronization

/// Reachability on Linux, from the kernel itself: an rtnetlink monitor of link, address and route changes
/// (IPv4 and IPv6), and a per-host check — is there a route to the host's addresses, and is the egress
/// interface up with carrier.
///
/// The netlink socket is subscribed before anything is evaluated, so no change is missed. Each burst of
/// kernel messages is debounced (``init(debounce:)``), then every host asked about so far is evaluated again
/// and each subscriber of ``changes()`` is told once. ``status(of:)`` answers from that cache; a host seen for
/// the first time is resolved and checked by the monitor's thread. Nothing is ever sent on the network.
public final class NetlinkReachability: Reachability {
    private let monitor: NetlinkMonitor

    /// Opens the netlink socket and starts the monitor's thread.
    ///
    /// - Parameter debounce: How long the kernel must be quiet after a change before hosts are evaluated
    ///   again (a burst is cut off after ten times this). Default is 5 ms.
    /// - Throws: ``ReachabilityError`` when the socket or the thread cannot be set up (a sandbox without
    ///   netlink); `SystemReachability` then falls back to `unknown` for every host.
    public init(debounce: Duration = .milliseconds(5)) throws(ReachabilityError) {
        monitor = try NetlinkMonitor(debounce: debounce)
    }

    deinit { monitor.stop() }

    /// The status of `host` (a name, or an IPv4 or IPv6 literal); evaluated on first use, then kept current.
    public nonisolated(nonsending) func status(of host: String) async -> ReachabilityStatus {
        let key = URLAuthority.lowercased(host: host)
        if let known = monitor.cachedStatus(of: key) { return known }
        return await withCheckedContinuation { monitor.evaluate(key, then: $0) }
    }

    /// The status of `host` when the monitor has evaluated it already; `nil` for a host never asked.
    public func knownStatus(of host: String) -> ReachabilityStatus? { monitor.cachedStatus(of: URLAuthority.lowercased(host: host)) }

    /// Yields once after each debounced burst of link, address or route changes, once every host has been
    /// evaluated again.
    public func changes() -> AsyncStream<Void> { monitor.subscribe() }

    /// Stops the monitor: subscribers' sequences end, and every later status is `unknown`.
    public func stop() { monitor.stop() }
}

/// Why the netlink monitor could not start.
public struct ReachabilityError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public let step: String
    /// The errno it failed with.
    public let errno: Int32
    public var description: String { "\(step) failed: \(SystemError(code: errno))" }
}

/// The reachability `Session`s use unless told otherwise: the netlink monitor, or — where netlink cannot be
/// opened — a stand-in that answers `unknown` for every host and never signals a change.
public enum SystemReachability {
    /// One monitor for the whole process, started on first use.
    public static let shared: any Reachability = {
        do { return try NetlinkReachability() } catch { return UnknownReachability() }
    }()
}
