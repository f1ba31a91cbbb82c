import BrickCore
import BrickRequest
import BrickSystem
import FoundationEssentials
import Glibc

/// `--session NAME`: what one run keeps for the next runs against the same host, as HTTPie's sessions do:
/// the headers its command line named (`Authorization` from `-a` included) that the library accepted, and
/// every cookie the server set, session cookies too. NAME is kept in
/// `$XDG_CONFIG_HOME/brick/sessions/HOST_PORT/NAME/` (`~/.config` when `XDG_CONFIG_HOME` is unset); a NAME
/// with a `/` in it is that directory itself. The directory is its owner's alone (0700), and so are its two
/// files (0600): `headers.json` (a JSON list of name and value, so that no value can split into another
/// field) and `cookies` (curl's format: `curl -b` reads it). A header named on the command line replaces the
/// kept one. A directory or file that is not the user's own, is writable by others, or is a symbolic link is
/// refused, as ssh refuses such a `~/.ssh`: another user could have planted what it holds.
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

    /// The most a session's headers file may hold.
    static let headersLimit = 1 << 20

    /// Opens (or creates) the session `name` for requests to `url`.
    init(name: String, url: String) throws(UsageError) {
        directory = try Self.directory(for: name, url: url)
        try Self.makeDirectories(directory)
        try Self.refuseUnlessOwn(directory)
        try Self.refuseUnlessOwn(directory + "/cookies", ifPresent: true)
        try Self.refuseUnlessOwn(directory + "/headers.json", ifPresent: true)
        do {
            cookies = try CookieJar(file: directory + "/cookies", keepingSessionCookies: true)
        } catch {
            throw UsageError("the session's cookies cannot be read: \(error)")
        }
        headers = try Self.readHeaders(directory + "/headers.json")
    }

    /// The headers kept in `path` (JSON), each one a field the library accepts; none when there is no file.
    private static func readHeaders(_ path: String) throws(UsageError) -> HTTPHeaders {
        let bytes: [UInt8]
        switch FileDescriptor.readWhole(path, limit: headersLimit) {
        case .success(let read): bytes = read
        case .failure(let error) where error.code == ENOENT: return HTTPHeaders()
        case .failure(let error): throw UsageError("the session's headers \(path) cannot be read: \(error)")
        }
        guard let stored = try? JSONDecoder().decode(HTTPHeaders.self, from: Data(bytes)) else {
            throw UsageError("the session's headers \(path) are not a JSON list of fields")
        }
        return HTTPHeaders(stored.filter { field in
            !unkept.contains(field.name.lowercased()) && (try? HTTPHeaders([field]).validate()) != nil
        })
    }

    /// Refuses `path` unless it is the user's own, not writable by others and not a symbolic link; with
    /// `ifPresent`, a path with nothing there passes.
    private static func refuseUnlessOwn(_ path: String, ifPresent: Bool = false) throws(UsageError) {
        guard let status = Paths.linkStatus(of: path) else {
            if ifPresent && errno == ENOENT { return }
            throw UsageError("the session's \(path) cannot be read: \(String(cString: strerror(errno)))")
        }
        guard status.isOwnAndUnwritableByOthers else {
            let what = status.isSymbolicLink ? "a symbolic link" : status.owner != geteuid() ? "not yours"
                : "writable by others (mode \(String(status.permissions, radix: 8)))"
            throw UsageError("the session's \(path) is \(what): refused, as what another user could put there is not trusted")
        }
    }

    /// The kept headers with `own` set over them: what this run sends.
    func merged(with own: HTTPHeaders) -> HTTPHeaders {
        var all = headers
        all.merge(own)
        return all
    }

    /// Keeps `sent` (the merged headers) for the next runs: only the fields the library accepts (a refused
    /// one was never sent), but for those of ``unkept``, as JSON.
    func save(_ sent: HTTPHeaders) throws(UsageError) {
        let kept = HTTPHeaders(sent.filter { field in
            !Self.unkept.contains(field.name.lowercased()) && (try? HTTPHeaders([field]).validate()) != nil
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(kept) else { throw UsageError("the session's headers cannot be written as JSON") }
        if let failure = writeAtomically(data, to: directory + "/headers.json") {
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
