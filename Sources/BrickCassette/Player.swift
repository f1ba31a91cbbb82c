import BrickSystem
import BrickTransport
import FoundationEssentials

/// A request replay found no recorded answer for: the request, the nearest entry, and what differed.
public struct ReplayMismatch: Error, Sendable, CustomStringConvertible {
    /// `GET http://…` (secrets hidden as in error messages).
    public let request: String
    /// The nearest recorded entry (from 0), if the cassette has any.
    public let nearestEntry: Int?
    /// The nearest entry's method and URL.
    public let nearest: String?
    /// What differed from the nearest entry, in words; empty when every entry that matches was used already.
    public let differences: [String]

    public var description: String {
        guard let nearestEntry, let nearest else { return "no recorded answer for \(request): the cassette is empty" }
        guard !differences.isEmpty else {
            return "no recorded answer left for \(request): entry \(nearestEntry) and every other one that matches were used"
        }
        return "no recorded answer for \(request); nearest is entry \(nearestEntry) (\(nearest)): " + differences.joined(separator: "; ")
    }
}

/// The recorded entries and which of them answered already: each answers once, in recorded order.
final class Player: Sendable {
    private let entries: [HAR.Entry]
    private let used: Locked<[Bool]>
    private let mismatches = Locked<[ReplayMismatch]>([])
    let matching: ReplayMatching
    /// Whether an answer waits as long as its recording took.
    let replaysTimings: Bool
    /// Whether a request whose answers were all used gets the last of them again.
    let repeatsLastAnswer: Bool

    init(entries: [HAR.Entry], matching: ReplayMatching, replaysTimings: Bool, repeatsLastAnswer: Bool) {
        self.entries = entries
        used = Locked(Array(repeating: false, count: entries.count))
        self.matching = matching
        self.replaysTimings = replaysTimings
        self.repeatsLastAnswer = repeatsLastAnswer
    }

    /// The requests that found no answer so far.
    var unmatched: [ReplayMismatch] { mismatches.withLock { $0 } }

    /// The entry that answers `request` (marked used), or the mismatch naming the nearest one.
    func answer(for request: TransportRequest) -> Result<HAR.Entry, ReplayMismatch> {
        let body = request.body?.data
        let differences = entries.map { matching.differences(request, body, $0) }
        let chosen = used.withLock { used -> Int? in
            let candidates = differences.indices.filter { differences[$0].isEmpty }
            guard let next = candidates.first(where: { !used[$0] }) ?? (repeatsLastAnswer ? candidates.last : nil) else { return nil }
            used[next] = true
            return next
        }
        if let chosen { return .success(entries[chosen]) }
        let nearest = differences.indices.min { differences[$0].count < differences[$1].count }
        let mismatch = ReplayMismatch(
            request: "\(request.method.rawValue) \(TransportRequest.forMessages(request.url))", nearestEntry: nearest,
            nearest: nearest.map { "\(entries[$0].request.method) \(TransportRequest.forMessages(entries[$0].request.url))" },
            differences: nearest.map { differences[$0] } ?? [])
        mismatches.withLock { $0.append(mismatch) }
        return .failure(mismatch)
    }
}

extension HAR.Entry {
    /// The recorded outcome: the response as the transport gave it, or the transport error.
    func outcome() -> Result<TransportResponse, TransportError> {
        if let error {
            return .failure(TransportError(TransportError.Kind(rawValue: error.kind) ?? .other, message: error.message))
        }
        var fields = HTTPHeaders()
        for pair in response.headers { fields.add(name: pair.name, value: pair.value) }
        let version = response.httpVersion.uppercased().hasPrefix("HTTP/") ? String(response.httpVersion.dropFirst(5)) : response.httpVersion
        let head = ResponseHead(status: response.status, version: version == "2.0" ? "2" : version, reason: response.statusText, headers: fields)
        // Checked when the cassette was read.
        let body = (try? responseBody()) ?? Data()
        let coding = fields["Content-Encoding"]?.lowercased()
        var metrics = TransferMetrics()
        metrics.total = .microseconds(Int64(max(0, min(time, 86_400_000)) * 1000))
        metrics.bytesReceived = Int64(body.count)
        metrics.effectiveURL = request.url
        return .success(TransportResponse(head: head, body: body, metrics: metrics, contentDecoded: coding != nil && coding != "identity"))
    }
}
