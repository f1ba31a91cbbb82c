#if !Observability
#error("BrickObservability needs the package trait Observability: .package(url: …, from: …, traits: [\"Observability\"]), or swift build --enable-all-traits in this repository")
#endif

#if Observability  // the package trait that brings this module's dependency (Package.swift)
public import BrickCore

extension HTTPMethod {
    /// The method as OpenTelemetry's HTTP conventions label it: one of RFC 9110's methods or `PATCH`, as it
    /// is (methods are case-sensitive), and `_OTHER` for any other, so that a caller's methods cannot grow
    /// the number of metric series without bound. The original goes to spans as
    /// `http.request.method_original`.
    public var conventionsLabel: String {
        Self.knownToConventions.contains(rawValue) ? rawValue : "_OTHER"
    }

    private static let knownToConventions: Set<String> = ["CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE"]
}
#endif
