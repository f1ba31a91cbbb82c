/// Whether a host can be reached from here now.
public enum ReachabilityStatus: Sendable, Equatable {
    /// There is a route to the host over an interface that is up.
    case reachable
    /// There is no route, or its interface is down or without carrier.
    case unreachable
    /// Not known (not evaluated yet, or the host could not be resolved to check).
    case unknown
}

/// The seam through which the retry machinery learns about the network: the current status per host and
/// a signal whenever anything changed. The Linux netlink monitor is the real one; BrickTesting's
/// `ManualReachability` stands in for it in unit tests.
public protocol Reachability: Sendable {
    /// The status of `host` now. Asked before each call's first attempt, on the caller's executor: answer
    /// from what you know (a cache the monitor keeps current) and suspend only for a host never seen.
    nonisolated(nonsending) func status(of host: String) async -> ReachabilityStatus
    /// The status of `host` when it is known without suspending (what ``status(of:)`` would answer at once),
    /// or `nil` when only ``status(of:)`` can tell. Asked first before a call's attempt, so that a known
    /// route costs no suspension; the default is `nil`.
    func knownStatus(of host: String) -> ReachabilityStatus?
    /// A sequence that yields each time the network changed in a way that may change some host's status;
    /// subscribe before reading ``status(of:)`` so that no change is missed.
    func changes() -> AsyncStream<Void>
}

extension Reachability {
    public func knownStatus(of host: String) -> ReachabilityStatus? { nil }
}

/// Knows nothing: every host is `unknown`, and nothing ever changes. What a session on a transport you pass
/// uses unless you name a reachability (retry rules then never wait for a network they cannot see), and
/// what the system reachability falls back to where netlink cannot be opened.
public struct UnknownReachability: Reachability {
    /// Creates the stand-in.
    public init() {}
    public nonisolated(nonsending) func status(of host: String) async -> ReachabilityStatus { .unknown }
    public func knownStatus(of host: String) -> ReachabilityStatus? { .unknown }
    public func changes() -> AsyncStream<Void> { AsyncStream { _ in } }
}
