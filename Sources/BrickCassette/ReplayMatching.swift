public import BrickTransport
import FoundationEssentials

/// How replay finds a request's recorded answer. By default the method and the URL (its query items in
/// order); a recorded value that was redacted (``CassetteRedaction/marker``) matches any value.
///
/// ```swift
/// var matching = ReplayMatching()
/// matching.ignoresQueryOrder = true
/// matching.headers = ["Accept"]
/// matching.body = true
/// ```
public struct ReplayMatching: Sendable {
    /// Whether `?a=1&b=2` matches a recording of `?b=2&a=1`. Default `false`.
    public var ignoresQueryOrder = false
    /// Header fields whose values must match too (by name, any case). Default none.
    public var headers: [String] = []
    /// Whether the body must match too (byte for byte, but for redacted parts). Default `false`.
    public var body = false
    /// Whether a URL matches a recording made on another port of the same host: what a test server started
    /// on a free port needs, whose port changes from run to run. Default `false` (a cassette pins host and
    /// port).
    public var ignoresPort = false
    /// A last word on a candidate the other rules accepted: `true` to answer the request with it.
    public var custom: (@Sendable (TransportRequest, HAR.Entry) -> Bool)?

    /// Method and URL.
    public init() {}

    /// What differs between `request` and `entry`, in words; empty when the entry answers the request.
    func differences(_ request: TransportRequest, _ body: Data?, _ entry: HAR.Entry) -> [String] {
        var found: [String] = []
        if request.method.rawValue != entry.request.method {
            found.append("method is \(request.method.rawValue), recorded \(entry.request.method)")
        }
        found += urlDifferences(request.url, entry.request.url)
        for name in headers {
            let live = request.headers[name]
            let recorded = entry.request.headers.first { $0.name.lowercased() == name.lowercased() }?.value
            guard !Glob.matches(recorded, live) else { continue }
            found.append("header \(name) is \(live.map(\.debugDescription) ?? "absent"), recorded \(recorded.map(\.debugDescription) ?? "absent")")
        }
        if self.body, let recorded = try? entry.requestBody(), !Glob.matches(recorded, body ?? Data()) {
            found.append("body of \(body?.count ?? 0) bytes differs from the recorded \(recorded.count)")
        }
        if found.isEmpty, let custom, !custom(request, entry) { found.append("the custom matcher refused it") }
        return found
    }

    private func urlDifferences(_ live: String, _ recorded: String) -> [String] {
        let (liveBase, liveItems) = Self.split(live)
        let (recordedBase, recordedItems) = Self.split(recorded)
        var found: [String] = []
        let (liveCompared, recordedCompared) = ignoresPort ? (Self.withoutPort(liveBase), Self.withoutPort(recordedBase)) : (liveBase, recordedBase)
        if !Glob.matches(recordedCompared, liveCompared, marker: CassetteRedaction.markerInURL) {
            let onlyThePort = Glob.matches(Self.withoutPort(recordedBase), Self.withoutPort(liveBase), marker: CassetteRedaction.markerInURL)
            found.append(
                "URL is \(TransportRequest.forMessages(String(liveBase))), recorded \(TransportRequest.forMessages(String(recordedBase)))"
                    + (onlyThePort ? " (only the port differs: a cassette pins host and port; set ReplayMatching.ignoresPort for a test server on a free port)" : ""))
        }
        var remaining = recordedItems
        for (position, item) in liveItems.enumerated() {
            let candidates = ignoresQueryOrder ? Array(remaining.indices) : (position < recordedItems.count ? [position] : [])
            if let index = candidates.first(where: { Self.itemMatches(remaining[$0], item) }) {
                if ignoresQueryOrder { remaining.remove(at: index) } else { remaining[index] = "" }
                continue
            }
            let name = item.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            found.append("query item \(name.debugDescription) is not as recorded" + (ignoresQueryOrder ? "" : " at position \(position + 1)"))
        }
        let unmatched = ignoresQueryOrder ? remaining.count : max(0, recordedItems.count - liveItems.count)
        if unmatched > 0 { found.append("\(unmatched) recorded query item(s) missing") }
        return found
    }

    private static func itemMatches(_ recorded: Substring, _ live: Substring) -> Bool {
        !recorded.isEmpty && Glob.matches(recorded, live, marker: CassetteRedaction.markerInURL)
    }

    /// `url` without the port of its authority (`http://h:8080/a` → `http://h/a`); unchanged when it names none.
    static func withoutPort(_ url: Substring) -> Substring {
        guard let separator = url.firstRange(of: "://") else { return url }
        let authorityEnd = url[separator.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        let authority = url[separator.upperBound..<authorityEnd]
        let hostStart = authority.lastIndex(of: "@").map(authority.index(after:)) ?? authority.startIndex
        let host = authority[hostStart...]
        let afterBracket = host.lastIndex(of: "]").map(host.index(after:)) ?? host.startIndex
        guard let colon = host[afterBracket...].firstIndex(of: ":") else { return url }
        return Substring(String(url[..<colon]) + String(url[authorityEnd...]))
    }

    /// A URL's part before its query, and its query items (the fragment dropped).
    private static func split(_ url: String) -> (Substring, [Substring]) {
        let withoutFragment = url.prefix { $0 != "#" }
        guard let question = withoutFragment.firstIndex(of: "?") else { return (withoutFragment, []) }
        let items = withoutFragment[withoutFragment.index(after: question)...].split(separator: "&")
        return (withoutFragment[..<question], items)
    }
}

/// Matching with redacted parts: a recorded value holding the marker matches any value with the same text
/// around each marker.
enum Glob {
    static func matches(_ recorded: String?, _ live: String?, marker: String = CassetteRedaction.marker) -> Bool {
        guard let recorded, let live else { return recorded == nil && live == nil }
        return matches(Substring(recorded), Substring(live), marker: marker)
    }

    static func matches(_ recorded: Substring, _ live: Substring, marker: String = CassetteRedaction.marker) -> Bool {
        guard recorded.contains(marker) else { return recorded == live }
        let pieces = recorded.split(separator: marker, omittingEmptySubsequences: false)
        guard let first = pieces.first, let last = pieces.last, live.hasPrefix(first) else { return false }
        var rest = live.dropFirst(first.count)
        for piece in pieces.dropFirst().dropLast() {
            guard let found = rest.firstRange(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return rest.hasSuffix(last) && rest.count >= last.count
    }

    static func matches(_ recorded: Data, _ live: Data) -> Bool {
        guard recorded != live else { return true }
        guard let recordedText = String(validating: recorded, as: UTF8.self), let liveText = String(validating: live, as: UTF8.self) else {
            return false
        }
        return matches(recordedText, liveText) || matches(recordedText, liveText, marker: CassetteRedaction.markerInURL)
    }
}
