import BrickTransport
import FoundationEssentials

/// The secret values a recording found (a redacted field's value, a URL's password, a token in a body), to
/// scrub from every entry of the recording wherever they appear again: in text, in a URL (also
/// percent-encoded), and as bytes in a body kept in base64.
struct SecretValues: Sendable {
    private(set) var values: Set<String> = []

    /// Notes `value` (and its percent-decoded form) as secret. Values under four characters are not noted:
    /// they would scrub innocent text (a `1` in every body); where they stood was redacted anyway.
    mutating func note(_ value: some StringProtocol) {
        let trimmed = String(String(value).trimmingSpaces)
        add(trimmed)
        if trimmed.contains("%") { add(Secrets.percentDecoded(Substring(trimmed))) }
    }

    private mutating func add(_ value: String) {
        guard value.count >= 4, !value.contains(CassetteRedaction.marker), value != CassetteRedaction.markerInURL else { return }
        values.insert(value)
        // The same value as a JSON string writes it (`/` may be escaped) and as a URL carries it.
        let escaped = value.replacing("/", with: "\\/")
        if escaped != value { values.insert(escaped) }
        if let encoded = Self.percentEncoded(value), encoded != value { values.insert(encoded) }
    }

    mutating func merge(_ other: SecretValues) { values.formUnion(other.values) }

    /// Every value, longest first (so that a value inside a longer one does not leave the rest behind).
    var ordered: [String] { values.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 } }

    /// `value` with every byte but the unreserved ones percent-encoded; `nil` when nothing needs it.
    private static func percentEncoded(_ value: String) -> String? {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        guard value.utf8.contains(where: { !unreserved.contains($0) }) else { return nil }
        return value.utf8.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : "%" + String($0, radix: 16, uppercase: true).leftPadded }
            .joined()
    }
}

/// Replaces noted secrets in text and in bytes.
struct Scrubber {
    let ordered: [String]
    private let orderedBytes: [[UInt8]]

    init(_ secrets: SecretValues) {
        ordered = secrets.ordered
        orderedBytes = ordered.map { Array($0.utf8) }
    }

    var isEmpty: Bool { ordered.isEmpty }

    /// `text` with each secret replaced by `marker`.
    func text(_ text: String, marker: String = CassetteRedaction.marker) -> String {
        ordered.reduce(text) { text, secret in text.contains(secret) ? text.replacing(secret, with: marker) : text }
    }

    /// `bytes` with each secret's UTF-8 replaced by the marker's: for a body that is not text.
    func bytes(_ bytes: [UInt8]) -> [UInt8] {
        let marker = Array(CassetteRedaction.marker.utf8)
        var bytes = bytes
        for secret in orderedBytes where !secret.isEmpty && secret.count <= bytes.count {
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                if bytes[index] == secret[0], index + secret.count <= bytes.count, bytes[index..<(index + secret.count)].elementsEqual(secret) {
                    result += marker
                    index += secret.count
                } else {
                    result.append(bytes[index])
                    index += 1
                }
            }
            bytes = result
        }
        return bytes
    }
}

extension String {
    var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map(index(after:)) ?? start
        return self[start..<max(start, end)]
    }

    /// Two characters at least, a `0` before one.
    fileprivate var leftPadded: String { count < 2 ? "0" + self : self }
}
