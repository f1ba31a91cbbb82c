public import FoundationEssentials

/// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate form `Sun, 06 Nov 1994 08:49:37 GMT`, and the obsolete
/// RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) forms that
/// recipients must still read.
public enum HTTPDate {
    /// The years an HTTP date may name; anything else is not a date (and would overflow the arithmetic).
    static let validYears = 1...9999
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The instant `text` names, or `nil` when it is not an HTTP date.
    public static func parse(_ text: String) -> Date? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map { $0.lowercased() }
        guard tokens.count >= 5 else { return nil }
        var day: Int?, month: Int?, year: Int?, clock: [Int]?
        for token in tokens.dropFirst() {
            if token.contains(":") {
                let parts = token.split(separator: ":").compactMap { Int($0) }
                guard parts.count == 3 else { return nil }
                clock = parts
            } else if let index = months.firstIndex(of: token) {
                month = index + 1
            } else if let number = Int(token), token.allSatisfy(\.isASCII) {
                if token.count == 4 { year = number } else if day == nil { day = number } else { year = number }
            } else if token != "gmt" && token != "utc" {
                return nil
            }
        }
        guard let day, let month, var year, let clock, (1...31).contains(day), (0...23).contains(clock[0]),
            (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        if year < 100 { year += year < 70 ? 2000 : 1900 }  // RFC 850's two-digit years
        // A server's number: bounded before any arithmetic (a year like 999999999999 would overflow below).
        guard validYears.contains(year) else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2]))
    }

    /// Days from 1970-01-01 to the given civil date (proleptic Gregorian calendar).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// The `Retry-After` header (RFC 9110 §10.2.3): a number of seconds, or an HTTP date.
public enum RetryAfter {
    /// The longest delay a `Retry-After` can ask for: ten years. Longer ones are clamped to it (and the
    /// retry rules cap it far lower, with ``AutoRetryConfiguration/maxRetryAfter``).
    static let longest = 10 * 365 * 86_400

    /// The delay `value` asks for. A date is measured from `reference` — the response's own `Date` header
    /// when it has one, so that a skewed local clock does not matter. A date in the past means no delay;
    /// a value that is neither form is `nil`.
    public static func delay(_ value: String, reference: Date) -> Duration? {
        let trimmed = String(value.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return .seconds(min(Int(trimmed) ?? longest, longest))
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        // Both dates are bounded (years 1–9999), so the difference is finite; it is clamped before it
        // becomes an integer.
        let seconds = min(date.timeIntervalSince(reference), Double(longest))
        return seconds > 0 ? .milliseconds(Int((seconds * 1000).rounded())) : .zero
    }

    /// The delay asked for by `head`'s `Retry-After`, measured from its `Date` header or else `now`.
    public static func delay(in head: ResponseHead, now: Date) -> Duration? {
        guard let value = head.headers["Retry-After"] else { return nil }
        let reference = head.headers["Date"].flatMap(HTTPDate.parse) ?? now
        return delay(value, reference: reference)
    }
}
