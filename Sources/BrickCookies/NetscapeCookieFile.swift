import FoundationEssentials

/// The cookie file format of curl and browsers of old (`# Netscape HTTP Cookie File`): one cookie a line,
/// seven fields separated by tabs (domain, subdomains TRUE/FALSE, path, secure TRUE/FALSE, expiry in Unix
/// seconds, name, value), an `HttpOnly` cookie's domain prefixed with `#HttpOnly_`.
enum NetscapeCookieFile {
    static let header = "# Netscape HTTP Cookie File\n# Written by BrickRequest; curl reads it with -b.\n\n"

    /// The lasting cookies of `cookies`, and with `sessionCookies` the others too, with the expiry 0.
    static func write(_ cookies: [Cookie], sessionCookies: Bool = false) -> String {
        header + cookies.compactMap { cookie -> String? in
            guard cookie.expires != nil || sessionCookies else { return nil }
            let expiry = cookie.expires.map { String(Int64($0.timeIntervalSince1970)) } ?? "0"
            let domain = (cookie.httpOnly ? "#HttpOnly_" : "") + (cookie.hostOnly ? "" : ".") + cookie.domain
            return [domain, cookie.hostOnly ? "FALSE" : "TRUE", cookie.path, cookie.secure ? "TRUE" : "FALSE",
                    expiry, cookie.name, cookie.value].joined(separator: "\t") + "\n"
        }.joined()
    }

    /// The unexpired cookies of a file's text, and with `sessionCookies` those of expiry 0 as session cookies;
    /// lines that do not fit the format are skipped.
    static func read(_ text: String, now: Date, sessionCookies: Bool = false) -> [Cookie] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).prefix(CookieJar.total * 2).compactMap { line -> Cookie? in
            var line = Substring(line)
            let httpOnly = line.hasPrefix("#HttpOnly_")
            if httpOnly { line = line.dropFirst("#HttpOnly_".count) } else if line.hasPrefix("#") { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 7, let seconds = Int64(fields[4]), seconds > 0 || (seconds == 0 && sessionCookies) else { return nil }
            let expires = seconds == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(min(seconds, 253_402_300_799)))
            guard expires.map({ $0 > now }) ?? true, fields[2].hasPrefix("/"), !fields[5].isEmpty else { return nil }
            let domain = fields[0].hasPrefix(".") ? fields[0].dropFirst() : fields[0]
            guard !domain.isEmpty else { return nil }
            return Cookie(name: String(fields[5]), value: String(fields[6]), domain: domain.lowercased(),
                          hostOnly: fields[1] != "TRUE", path: String(fields[2]), secure: fields[3] == "TRUE",
                          httpOnly: httpOnly, expires: expires)
        }
    }
}
