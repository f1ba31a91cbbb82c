package import FoundationEssentials

/// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate form `Sun, 06 Nov 1994 08:49:37 GMT`, and the obsolete
/// RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) forms that
/// recipients must still read. Nothing else is a date: a cache must take an invalid `Expires` as a time in
/// the past (RFC 9111 §5.3), so a one-digit hour, a two-digit year in the first form, dashes in it, doubled
/// spaces, a missing comma or `UTC` make no date. Weekday and month names are read in any case.
package enum HTTPDate {
    /// The years an HTTP date may name; anything else is not a date (and would overflow the arithmetic).
    static let validYears = 1...9999
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// The instant `text` names, or `nil` when it is not an HTTP date in one of the three forms.
    package static func parse(_ text: String) -> Date? {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        let bytes = Array(String(trimmed).utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
        return imfFixdate(bytes) ?? rfc850(bytes) ?? asctime(bytes)
    }

    /// `sun, 06 nov 1994 08:49:37 gmt` (lowercased), exactly.
    private static func imfFixdate(_ b: [UInt8]) -> Date? {
        guard b.count == 29, name(b[0..<3], in: days), b[3] == 0x2C, b[4] == 0x20, let day = digits(b[5..<7]), b[7] == 0x20,
            let month = month(b[8..<11]), b[11] == 0x20, let year = digits(b[12..<16]), b[16] == 0x20,
            let clock = time(b[17..<25]), b[25...].elementsEqual(" gmt".utf8)
        else { return nil }
        return date(year: year, month: month, day: day, clock: clock)
    }

    /// `sunday, 06-nov-94 08:49:37 gmt` (lowercased): a two-digit year, taken as the latest year with those
    /// digits that is not more than 50 years ahead (RFC 9110 §5.6.7).
    private static func rfc850(_ b: [UInt8]) -> Date? {
        guard let comma = b.firstIndex(of: 0x2C), name(b[..<comma], in: longDays), b.count == comma + 24, b[comma + 1] == 0x20
        else { return nil }
        let rest = b[(comma + 2)...]
        let s = rest.startIndex
        guard let day = digits(rest[s..<(s + 2)]), rest[s + 2] == 0x2D, let month = month(rest[(s + 3)..<(s + 6)]), rest[s + 6] == 0x2D,
            let shortYear = digits(rest[(s + 7)..<(s + 9)]), rest[s + 9] == 0x20, let clock = time(rest[(s + 10)..<(s + 18)]),
            rest[(s + 18)...].elementsEqual(" gmt".utf8)
        else { return nil }
        let thisYear = 1970 + Int(Date().timeIntervalSince1970 / 31_556_952)
        var year = thisYear - thisYear % 100 + shortYear
        if year > thisYear + 50 { year -= 100 }
        return date(year: year, month: month, day: day, clock: clock)
    }

    /// `sun nov  6 08:49:37 1994` (lowercased): the day as two digits or a space and one digit.
    private static func asctime(_ b: [UInt8]) -> Date? {
        guard b.count == 24, name(b[0..<3], in: days), b[3] == 0x20, let month = month(b[4..<7]), b[7] == 0x20,
            let day = b[8] == 0x20 ? digits(b[9..<10]) : digits(b[8..<10]), b[10] == 0x20, let clock = time(b[11..<19]),
            b[19] == 0x20, let year = digits(b[20..<24])
        else { return nil }
        return date(year: year, month: month, day: day, clock: clock)
    }

    private static func name(_ bytes: ArraySlice<UInt8>, in names: [String]) -> Bool {
        names.contains { bytes.elementsEqual($0.utf8) }
    }

    private static func month(_ bytes: ArraySlice<UInt8>) -> Int? {
        months.firstIndex { bytes.elementsEqual($0.utf8) }.map { $0 + 1 }
    }

    /// The number the ASCII digits spell; `nil` unless every byte is one.
    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `08:49:37`: two digits each.
    private static func time(_ b: ArraySlice<UInt8>) -> [Int]? {
        let s = b.startIndex
        guard b.count == 8, b[s + 2] == 0x3A, b[s + 5] == 0x3A, let hour = digits(b[s..<(s + 2)]),
            let minute = digits(b[(s + 3)..<(s + 5)]), let second = digits(b[(s + 6)..<(s + 8)])
        else { return nil }
        return [hour, minute, second]
    }

    private static func date(year: Int, month: Int, day: Int, clock: [Int]) -> Date? {
        guard validYears.contains(year), (1...daysIn(month: month, year: year)).contains(day), (0...23).contains(clock[0]),
            (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2]))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// A date as cookies write it, read as leniently as RFC 6265 §5.1.1 asks of a cookie's `Expires`: any
    /// order of a day, a month name, a year (two digits taken as 1970–2069) and a time, separated by spaces,
    /// commas or dashes, with `GMT` or `UTC`.
    package static func parseLeniently(_ text: String) -> Date? {
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
package enum RetryAfter {
    /// The longest delay a `Retry-After` can ask for: ten years. Longer ones are clamped to it (and the
    /// retry rules cap it far lower, with ``AutoRetryConfiguration/maxRetryAfter``).
    static let longest = 10 * 365 * 86_400

    /// The delay `value` asks for. A date is measured from `reference` — the response's own `Date` header
    /// when it has one, so that a skewed local clock does not matter. A date in the past means no delay;
    /// a value that is neither form is `nil`.
    package static func delay(_ value: String, reference: Date) -> Duration? {
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
    package static func delay(in head: ResponseHead, now: Date) -> Duration? {
        guard let value = head.headers["Retry-After"] else { return nil }
        let reference = head.headers["Date"].flatMap(HTTPDate.parse) ?? now
        return delay(value, reference: reference)
    }
}
