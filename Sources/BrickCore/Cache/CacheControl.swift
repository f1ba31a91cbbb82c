/// The directives of `Cache-Control` fields (RFC 9111 §5.2) that a private client cache obeys.
struct CacheControl: Equatable, Sendable {
    var maxAge: Int?
    var noStore = false
    var noCache = false
    var mustRevalidate = false
    /// `public`: the response may be shared, even when the request carried credentials.
    var isPublic = false
    /// `must-understand`: store only a status the cache understands, and then whatever `no-store` says.
    var mustUnderstand = false
    /// `stale-while-revalidate=N` (RFC 5861): seconds past its lifetime a response may still answer while it
    /// is revalidated in the background.
    var staleWhileRevalidate: Int?
    /// `stale-if-error=N` (RFC 5861): seconds past its lifetime a response may answer when the server fails
    /// (500, 502, 503, 504) or cannot be reached.
    var staleIfError: Int?
    /// `immutable` (RFC 8246): the response will not change while it is fresh, so a request that asks for a
    /// younger one (`max-age`, as a reload does) is still answered by it; only `no-cache` sends it again.
    var immutable = false

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
                case "max-age": maxAge = Self.deltaSeconds(value.map { String($0) } ?? "")
                case "no-store": noStore = true
                case "no-cache": noCache = true
                case "must-revalidate", "proxy-revalidate": mustRevalidate = true
                case "public": isPublic = true
                case "must-understand": mustUnderstand = true
                case "immutable": immutable = true
                case "stale-while-revalidate": staleWhileRevalidate = Self.deltaSeconds(value.map { String($0) } ?? "")
                case "stale-if-error": staleIfError = Self.deltaSeconds(value.map { String($0) } ?? "")
                default: continue
                }
            }
        }
    }

    /// A delta-seconds value (RFC 9111 §1.2.2): digits, with anything past 2³¹ read as 2³¹ (a server's
    /// number is bounded before it is used); anything that is not digits is 0, that is stale.
    static func deltaSeconds(_ text: String) -> Int {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return 0 }
        return min(Int(text) ?? 1 << 31, 1 << 31)
    }
}
