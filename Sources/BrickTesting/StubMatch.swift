public import BrickTransport

/// Which requests a stub of ``StubTransport`` answers: a method and URL, optionally with the query's
/// parameters in any order, or any predicate over the request.
/// ```swift
/// stub.stub(.request(.get, "https://api.test/search?q=swift&page=2", ignoringQueryOrder: true), json: "[]")
/// stub.stub(.where { $0.method == .post && $0.headers["Idempotency-Key"] != nil }, status: 201)
/// ```
public struct StubMatch: Sendable {
    private let matches: @Sendable (TransportRequest) -> Bool

    /// Requests for which `predicate` is true.
    public static func `where`(_ predicate: @escaping @Sendable (TransportRequest) -> Bool) -> StubMatch {
        StubMatch(matches: predicate)
    }

    /// Requests to `url` with `method` (any method when `nil`). The URL is compared as written, unless
    /// `ignoringQueryOrder` is set: then the query's `name=value` pairs may come in any order (each pair
    /// as many times as in `url`).
    public static func request(_ method: HTTPMethod?, _ url: String, ignoringQueryOrder: Bool = false) -> StubMatch {
        let expected = ignoringQueryOrder ? QueryInsensitiveURL(url) : nil
        return StubMatch { request in
            guard method == nil || method == request.method else { return false }
            guard let expected else { return request.url == url }
            return QueryInsensitiveURL(request.url) == expected
        }
    }

    /// Whether the stub answers `request`.
    func answers(_ request: TransportRequest) -> Bool { matches(request) }
}

/// A URL with its query's pairs sorted, so that two URLs differing only in the pairs' order compare equal.
private struct QueryInsensitiveURL: Equatable {
    let withoutQuery: Substring
    let pairs: [Substring]

    init(_ url: String) {
        let beforeFragment = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = beforeFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        withoutQuery = parts[0]
        pairs = parts.count > 1 ? parts[1].split(separator: "&").sorted() : []
    }
}
