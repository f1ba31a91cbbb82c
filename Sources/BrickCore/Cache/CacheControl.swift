/// The directives of `Cache-Control` fields (RFC 9111 §5.2) that a private client cache obeys.
struct CacheControl: Equatable, Sendable {
    var maxAge: Int?
    var noStore = false
    var noCache = false
    var mustRevalidate = false

    init(maxAge: Int?, noStore: Bool = false, noCache: Bool = false, mustRevalidate: Bool = false) {
        self.maxAge = maxAge
        self.noStore = noStore
        self.noCache = noCache
        self.mustRevalidate = mustRevalidate
    }

    /// Parses every `Cache-Control` field of `headers`; unknown directives are ignored, and a `max-age`
    /// that is not a number is treated as 0 (stale), as RFC 9111 §4.2.1 advises.
    init(_ headers: HTTPHeaders) {
        for field in headers.values(for: "Cache-Control") {
            for directive in field.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1)
                let name = (parts.first ?? "").trimmingWhitespace.lowercased()
                let value = parts.count > 1 ? parts[1].trimmingWhitespace.unquoted : nil
                switch name {
                case "max-age": maxAge = value.flatMap { Int($0) }.map { max(0, $0) } ?? 0
                case "no-store": noStore = true
                case "no-cache": noCache = true
                case "must-revalidate", "proxy-revalidate": mustRevalidate = true
                default: continue
                }
            }
        }
    }
}
