/// What the attempt loop holds of a call's origin: its name in the session's ``OriginTable``, what the call
/// draws on there, and whether its current attempt is a half-open breaker's probe.
struct OriginTicket: Sendable {
    /// `scheme://host:port`.
    let origin: String
    /// The budget the call's retries draw on; `nil` when they draw on none.
    let budget: RetryBudget?
    /// Whether the call goes through the origin's breaker.
    let breaking: Bool
    /// Whether the attempt in flight is a probe.
    var probe = false
    /// Whether the attempt in flight holds one of the origin's places (``Bulkheads``).
    var holdsPlace = false
    /// Whether the last attempt's failure was charged to the budget (a retry after it needs the budget's leave).
    var charged = false

    /// The origin of `url`: its scheme and host lowercased, and its port (the scheme's own when it names none).
    static func origin(of url: String) -> String {
        let scheme = (url.firstRange(of: "://").map { url[..<$0.lowerBound] } ?? "").lowercased()
        let host = TransportRequest.host(of: url) ?? ""
        let afterScheme = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? Substring(url)
        var authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let afterHost = authority.lastIndex(of: "]").map { authority[authority.index(after: $0)...] } ?? authority
        let port = afterHost.firstIndex(of: ":").map { String(afterHost[afterHost.index(after: $0)...]) } ?? ""
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost):\(port.isEmpty ? (scheme == "https" ? "443" : "80") : port)"
    }
}
