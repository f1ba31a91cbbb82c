#if !ServiceLifecycle
#error("BrickServiceLifecycle needs the package trait ServiceLifecycle: .package(url: …, from: …, traits: [\"ServiceLifecycle\"]), or swift build --enable-all-traits in this repository")
#endif

#if ServiceLifecycle  // the package trait that brings this module's dependency (Package.swift)
public import BrickCore
public import ServiceLifecycle

/// A session as a swift-service-lifecycle `Service`: in a `ServiceGroup`, it runs until the group shuts
/// down gracefully (on SIGTERM, if the group is configured so), then drains the session with
/// `Session.shutdown(gracePeriod:)`: new requests are refused, running ones get `gracePeriod` to finish.
///
/// ```swift
/// let api = Session(configuration: .init(baseURL: "https://api.example.com"))
/// let group = ServiceGroup(services: [server, SessionService(api)], gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// ```
/// List it after the services that use the session: a group shuts its services down in reverse order.
public struct SessionService: Service {
    /// The session it drains.
    public let session: Session
    /// How long running requests may take to finish once the group shuts down.
    public let gracePeriod: Duration

    /// A service for `session`.
    /// - Parameters:
    ///   - session: The session to drain at shutdown.
    ///   - gracePeriod: How long running requests may take to finish. Default is 30 seconds.
    public init(_ session: Session, gracePeriod: Duration = .seconds(30)) {
        self.session = session
        self.gracePeriod = gracePeriod
    }

    /// Waits for the group's graceful shutdown (or cancellation, which drains with no grace), then shuts the
    /// session down.
    public func run() async throws {
        let graceful: Bool
        do {
            try await gracefulShutdown()
            graceful = true
        } catch {
            graceful = false
        }
        await session.shutdown(gracePeriod: graceful ? gracePeriod : .zero)
    }
}
#endif
