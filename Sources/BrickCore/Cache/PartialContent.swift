import FoundationEssentials

/// Byte ranges in the cache (RFC 9111 §3.3, §3.4; RFC 9110 §14): the one range a request asks for, the
/// range a stored `206` holds, a stored body answering a range, and two stored parts combined.
///
/// Only bodies stored as their bytes came are cut or joined: a complete response whose `Content-Length`
/// is its body's length (a body the transport decoded from a content coding has none stored), and a `206`
/// with no content coding and a `Content-Range` its body fills exactly.
enum PartialContent {
    /// The bytes of a representation of `length` bytes that `entry` holds: all of a complete response, the
    /// `Content-Range` of a stored `206`. `nil` when its body cannot be cut (see above).
    static func extent(of entry: CachedResponse) -> (range: ClosedRange<Int>, length: Int)? {
        if entry.status == 206 { return part(entry.head, bodyCount: entry.body.count) }
        guard let declared = entry.headers["Content-Length"].flatMap({ Int($0) }), declared == entry.body.count, declared > 0,
              entry.headers["Content-Encoding"] == nil
        else { return nil }
        return (0...(declared - 1), declared)
    }

    /// What a `206` head's `Content-Range: bytes first-last/length` (``ContentRange``) says, when its body of
    /// `bodyCount` bytes fills it and it has no content coding; `nil` for anything else (an unknown length
    /// `*`, several ranges, a length past 2⁴⁸).
    static func part(_ head: ResponseHead, bodyCount: Int) -> (range: ClosedRange<Int>, length: Int)? {
        guard head.status == 206, head.headers["Content-Encoding"] == nil,
              let part = head.headers["Content-Range"].flatMap(ContentRange.init), let length = part.complete,
              length <= 1 << 48, part.end - part.first == Int64(bodyCount)
        else { return nil }
        return (Int(part.first)...Int(part.last), Int(length))
    }

    /// The one range `request` asks for (`Range: bytes=a-b`, `a-` or `-n`) within a representation of
    /// `length` bytes, cut to it. `nil` when there is no `Range`, it is not in bytes, it names several ranges
    /// (left to the server), or it is not satisfiable (the server answers `416`).
    static func requested(by request: TransportRequest, length: Int) -> ClosedRange<Int>? {
        guard length > 0, let field = request.headers["Range"] else { return nil }
        let text = field.trimmingWhitespace
        guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else { return nil }
        let bounds = text.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2 else { return nil }
        if bounds[0].trimmingWhitespace.isEmpty {
            guard let suffix = number(bounds[1]), suffix > 0 else { return nil }
            return max(0, length - suffix)...(length - 1)
        }
        guard let first = number(bounds[0]), first < length else { return nil }
        if bounds[1].trimmingWhitespace.isEmpty { return first...(length - 1) }
        guard let last = number(bounds[1]), last >= first else { return nil }
        return first...min(last, length - 1)
    }

    /// `range` of `entry`'s bytes, as a `206` served at `now` (with its `Age`), when `entry` holds them all.
    static func answer(_ range: ClosedRange<Int>, from entry: CachedResponse, now: Date) -> TransportResponse? {
        guard let held = extent(of: entry), held.range.lowerBound <= range.lowerBound, range.upperBound <= held.range.upperBound
        else { return nil }
        var head = CachePolicy.served(entry, now: now)
        head.status = 206
        head.headers["Content-Range"] = "bytes \(range.lowerBound)-\(range.upperBound)/\(held.length)"
        head.headers["Content-Length"] = String(range.count)
        let start = entry.body.startIndex + (range.lowerBound - held.range.lowerBound)
        return TransportResponse(head: head, body: entry.body[start..<(start + range.count)])
    }

    /// `stored` and a newer part `newer` of the same representation joined (RFC 9111 §3.4): both carry the
    /// same strong `ETag` and length, were asked with the same values of the fields `Vary` names (a server may
    /// give two languages one tag), and their ranges overlap or touch. The newer part's fields and times
    /// are kept; when the two make the whole representation, the result is a complete `200` with its
    /// `Content-Length`. `nil` when they cannot be joined (the newer part is then stored alone).
    static func combined(_ stored: CachedResponse, with newer: CachedResponse) -> CachedResponse? {
        guard stored.status == 206, let tag = newer.headers["ETag"], !tag.hasPrefix("W/"), stored.headers["ETag"] == tag,
              stored.varyingFields == newer.varyingFields,
              let old = extent(of: stored), let new = extent(of: newer), old.length == new.length,
              old.range.lowerBound <= new.range.upperBound + 1, new.range.lowerBound <= old.range.upperBound + 1
        else { return nil }
        let union = min(old.range.lowerBound, new.range.lowerBound)...max(old.range.upperBound, new.range.upperBound)
        var body = Data(capacity: union.count)
        // The newer bytes win where the two overlap.
        if old.range.lowerBound < new.range.lowerBound { body.append(stored.body.prefix(new.range.lowerBound - old.range.lowerBound)) }
        body.append(newer.body)
        if old.range.upperBound > new.range.upperBound { body.append(stored.body.suffix(old.range.upperBound - new.range.upperBound)) }
        var joined = newer
        joined.body = body
        if union.count == new.length {
            joined.status = 200
            joined.headers["Content-Range"] = nil
        } else {
            joined.headers["Content-Range"] = "bytes \(union.lowerBound)-\(union.upperBound)/\(new.length)"
        }
        joined.headers["Content-Length"] = String(union.count)
        return joined
    }

    /// Digits as a number no larger than 2⁴⁸ (no representation here is larger); `nil` for anything else.
    private static func number(_ text: Substring) -> Int? {
        let digits = text.trimmingWhitespace
        guard !digits.isEmpty, digits.utf8.count <= 15, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        guard let value = Int(digits), value <= 1 << 48 else { return nil }
        return value
    }
}
