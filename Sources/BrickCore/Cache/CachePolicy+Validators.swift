import FoundationEssentials

/// Validators and preconditions (RFC 9110 §8.8, §13; RFC 9111 §4.3): how the cache revalidates what it
/// holds, what a `304` may update, and which requests carry preconditions of their own.
extension CachePolicy {
    /// The conditional fields that revalidate `entry`: `If-None-Match` with its `ETag`, and
    /// `If-Modified-Since` with its `Last-Modified`. Empty when it has neither.
    static func conditionalHeaders(for entry: CachedResponse) -> HTTPHeaders {
        var headers = HTTPHeaders()
        let head = entry.head
        if let tag = head.headers["ETag"] { headers["If-None-Match"] = tag }
        if let modified = head.headers["Last-Modified"] { headers["If-Modified-Since"] = modified }
        return headers
    }

    /// The preconditions a request may carry of its own (RFC 9110 §13.1), `If-Range` aside.
    static let preconditionFields = ["If-Match", "If-None-Match", "If-Modified-Since", "If-Unmodified-Since"]

    /// Whether `request` carries preconditions of its own: the caller revalidates something it holds, and
    /// the server, not this cache, answers it.
    static func hasPreconditions(_ request: TransportRequest) -> Bool {
        preconditionFields.contains { request.headers[$0] != nil }
    }

    /// Whether `request`'s `If-Range` (if any) lets a range be cut from `entry`: only a strong `ETag`
    /// identical to `entry`'s does (RFC 9110 §13.1.5; a date is left to the server, which knows whether its
    /// `Last-Modified` is strong).
    static func ifRangeHolds(_ request: TransportRequest, for entry: CachedResponse) -> Bool {
        guard let condition = request.headers["If-Range"] else { return true }
        guard condition.hasPrefix("\""), let tag = entry.headers["ETag"] else { return false }
        return tag == condition
    }

    /// Whether a `304` may update `entry` (RFC 9111 §4.3.4): its strong `ETag` is `entry`'s (strong
    /// comparison), its weak one names the same tag (weak comparison), or, without an `ETag`, its
    /// `Last-Modified` is `entry`'s; a `304` with no validator updates the response it revalidated.
    static func notModifiedMatches(_ notModified: ResponseHead, _ entry: CachedResponse) -> Bool {
        if let tag = notModified.headers["ETag"] {
            guard let stored = entry.headers["ETag"] else { return false }
            if tag.hasPrefix("W/") { return tag.trimmingPrefix("W/") == stored.trimmingPrefix("W/") }
            return stored == tag
        }
        if let modified = notModified.headers["Last-Modified"], let stored = entry.headers["Last-Modified"] {
            return HTTPDate.parse(modified).map { $0 == HTTPDate.parse(stored) } ?? false
        }
        return true
    }

    /// `entry` updated by a matching `304` answer (RFC 9111 §4.3.4): the 304's fields replace every stored
    /// field of the same name, except framing fields and those never stored (§3.1, §3.2: the connection's
    /// own, `Set-Cookie`), and the times are the revalidation's.
    static func refreshed(_ entry: CachedResponse, with notModified: ResponseHead, requestTime: Date, responseTime: Date) -> CachedResponse {
        let left = fieldsNotStored(notModified, decoded: false).union(["content-length", "content-encoding", "transfer-encoding", "content-range"])
        let updates = notModified.headers.filter { !left.contains($0.name.lowercased()) }
        let replaced = Set(updates.map { $0.name.lowercased() })
        var headers = HTTPHeaders(entry.head.headers.filter { !replaced.contains($0.name.lowercased()) })
        for field in updates { headers.add(name: field.name, value: field.value) }
        return CachedResponse(
            status: entry.status, headers: headers, body: entry.body, requestTime: requestTime, responseTime: responseTime,
            varyingFields: entry.varyingFields)
    }
}
