import BrickCore
import BrickRequest
import FoundationEssentials
import Glibc

/// `--session NAME`: what one run keeps for the next runs against the same host, as HTTPie's sessions do:
/// the headers its command line named (`Authorization` from `-a` included) and every cookie the server set,
/// session cookies too. NAME is kept in `$XDG_CONFIG_HOME/brick/sessions/HOST_PORT/NAME/` (`~/.config` when
/// `XDG_CONFIG_HOME` is unset); a NAME with a `/` in it is that directory itself. The directory is its
/// owner's alone (0700), and so are its two files (0600): `headers` (one `Name: value` a line) and `cookies`
/// (curl's format: `curl -b` reads it). A header named on the command line replaces the kept one.
struct SavedSession {
    let directory: String
    let cookies: CookieJar
    /// The headers kept by earlier runs, in their order.
    let headers: HTTPHeaders

    /// Fields that describe one request (its body, its condition, its range), never kept.
    static let unkept: Set<String> = [
        "content-type", "content-length", "content-encoding", "transfer-encoding", "cookie", "host", "expect",
        "if-match", "if-none-match", "if-modified-since", "if-unmodified-since", "if-range", "range",
    ]

    /// Opens (or creates) the session `name` for requests to `url`.
    init(name: String, url: String) throws(UsageError) {
        directory = try Self.directory(for: name, url: url)
        try Self.makeDirectories(directory)
        do {
            cookies = try CookieJar(file: directory + "/cookies", keepingSessionCookies: true)
        } catch {
            throw UsageError("the session's cookies cannot be read: \(error)")
        }
        var kept = HTTPHeaders()
        if let text = FileManager.default.contents(atPath: directory + "/headers") {
            for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = Self.trimmed(line[..<colon])
                guard !name.isEmpty, !Self.unkept.contains(name.lowercased()) else { continue }
                kept.add(name: name, value: Self.trimmed(line[line.index(after: colon)...]))
            }
        }
        headers = kept
    }

    /// The kept headers with `own` set over them: what this run sends.
    func merged(with own: HTTPHeaders) -> HTTPHeaders {
        var all = headers
        all.merge(own)
        return all
    }

    /// Keeps `sent` (the merged headers) for the next runs, but for the fields of ``unkept``.
    func save(_ sent: HTTPHeaders) throws(UsageError) {
        let lines = sent.filter { !Self.unkept.contains($0.name.lowercased()) }.map { "\($0.name): \($0.value)\n" }
        if let failure = writeAtomically(Data(lines.joined().utf8), to: directory + "/headers") {
            throw UsageError("the session's headers cannot be saved in \(directory): \(String(cString: strerror(failure)))")
        }
    }

    /// Where the session `name` for `url` lives.
    static func directory(for name: String, url: String) throws(UsageError) -> String {
        if name.contains("/") { return name }
        let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") }
        guard !name.isEmpty, !name.hasPrefix("."), allowed else {
            throw UsageError("--session takes a name of letters, digits, '.', '_' and '-' (or a directory's path), not \(name)")
        }
        let base: String
        if let config = getenv("XDG_CONFIG_HOME").map({ String(cString: $0) }), config.hasPrefix("/") {
            base = config
        } else if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty {
            base = home + "/.config"
        } else {
            throw UsageError("--session NAME needs HOME or XDG_CONFIG_HOME (or give a directory's path)")
        }
        return base + "/brick/sessions/" + hostDirectory(of: url) + "/" + name
    }

    /// `host_port` of a URL, with anything but letters, digits, `.` and `-` as `_`.
    static func hostDirectory(of url: String) -> String {
        let afterScheme = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? url[...]
        var authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let name = String(authority.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") ? $0 : "_" })
        return name.isEmpty || name.hasPrefix(".") ? "_" + name : name
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// Creates `path` and its missing parents, each owner-only.
    private static func makeDirectories(_ path: String) throws(UsageError) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o700) != 0, errno != EEXIST {
                throw UsageError("the session's directory \(built) cannot be created: \(String(cString: strerror(errno)))")
            }
        }
    }
}
