public import BrickCore
import BrickSystem
public import BrickTransport
import FoundationEssentials

/// A session's cookies, opt-in (`Session.Configuration.cookies`, `nil` by default): the `Set-Cookie`
/// fields of every answer (redirects included) are kept, and each request, and each hop of a redirect, gets
/// the cookies of its own URL, scoped by domain and path (RFC 6265), `Secure` ones over https only. A
/// cookie set by one host never goes to another, so none follows a redirect to another origin; no cookie is
/// kept for a public suffix (`co.uk`, `github.io`: the system's list); and plain http can neither set,
/// overwrite nor delete a `Secure` cookie (RFC 6265bis), whose `__Secure-` and `__Host-` prefixes are kept.
///
/// In memory, or in a file you name (`init(file:keepingSessionCookies:)`), in the Netscape format curl reads and
/// writes (`curl -b FILE`), owner-only (0600), replaced atomically after each change; session cookies (no
/// `Expires` or `Max-Age`) are written only when asked, with the expiry 0 curl gives them.
/// Bounded as RFC 6265 asks: 4096 bytes a cookie, 50 a domain, 3000 in all (expired ones go first, then
/// the oldest that is not `Secure`, then the oldest).
public final class CookieJar: CookieStore {
    private let state: Locked<[Cookie]>
    /// Held for the whole of a save, so that saves never interleave; counts the saves. (Not a lock around
    /// nothing: ThreadSanitizer reported the empty value's accesses under the lock as racing with reads of
    /// the object's header outside it.)
    private let saving = Locked(0)
    /// The file, if any.
    public let path: String?
    /// Whether the file keeps session cookies too, as a command-line client's saved session does.
    public let keepsSessionCookies: Bool

    static let perDomain = 50
    static let total = 3000

    /// An empty jar in memory.
    public init() {
        state = Locked([])
        path = nil
        keepsSessionCookies = false
    }

    /// A jar kept in the file at `path`: what it holds is read now (a missing file is an empty jar), and it
    /// is rewritten after every change. With `keepingSessionCookies`, cookies without an expiry are written
    /// and read too (a login kept between runs of a command), otherwise they last as long as the jar.
    /// - Throws: `FileError` (BrickCore's; `open`) when the file exists but cannot be read.
    public init(file path: String, keepingSessionCookies: Bool = false) throws(FileError) {
        self.path = path
        keepsSessionCookies = keepingSessionCookies
        var loaded: [Cookie] = []
        if Paths.exists(path) {
            guard let data = FileManager.default.contents(atPath: path) else { throw FileError(.open, path: path, osErrno: SystemError.last.code) }
            loaded = NetscapeCookieFile.read(String(decoding: data, as: UTF8.self), now: Date(), sessionCookies: keepingSessionCookies)
        }
        state = Locked(Array(loaded.suffix(Self.total)))
    }

    /// Every cookie held, oldest first.
    public var cookies: [Cookie] { state.withLock { $0 } }

    /// The cookies that go with a request to `url` now, longest path first.
    public func cookies(for url: String) -> [Cookie] {
        let held = state.withLock { $0 }
        guard !held.isEmpty, let (host, path, https) = CookieURL.parts(of: url) else { return [] }  // an empty jar reads no URL
        let now = Date()
        return held.filter { $0.matches(host: host, path: path, https: https, now: now) }
            .sorted { $0.path.count > $1.path.count }
    }

    /// Forgets every cookie (and empties the file).
    public func removeAll() {
        state.withLock { $0.removeAll() }
        save()
    }

    /// The `Cookie` field for `url`, or `nil` when no cookie goes there.
    func field(for url: String) -> String? {
        let matching = cookies(for: url)
        return matching.isEmpty ? nil : matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Adds the jar's cookies for the request's URL to its `Cookie` field (after the caller's own).
    public func attach(to request: inout TransportRequest) {
        guard let field = field(for: request.url) else { return }
        request.headers["Cookie"] = request.headers["Cookie"].map { $0 + "; " + field } ?? field
    }

    /// The part of a request's `Cookie` field `sent` that the caller wrote: `sent` without the jar's field for
    /// `url` that ``attach(to:)`` put after it; `nil` when it is the jar's alone.
    func callersPart(of sent: String, for url: String) -> String? {
        guard let added = field(for: url) else { return sent }
        if sent == added { return nil }
        return sent.hasSuffix("; " + added) ? String(sent.dropLast(added.count + 2)) : sent
    }

    /// Keeps the cookies `head` sets, for the request to `url` that got it.
    public func store(_ head: ResponseHead, from url: String) {
        let fields = head.headers.values(for: "Set-Cookie")
        guard !fields.isEmpty, let (host, path, https) = CookieURL.parts(of: url) else { return }
        let now = Date()
        let received = fields.compactMap { SetCookie.parse($0, host: host, path: path, https: https, now: now) }
        guard !received.isEmpty else { return }
        state.withLock { cookies in
            for cookie in received {
                if !https, cookies.contains(where: { $0.shadowsInsecure(cookie) }) { continue }
                cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                if let expires = cookie.expires, expires <= now { continue }  // an expiry in the past deletes
                cookies.append(cookie)
                let sameDomain = cookies.indices.filter { cookies[$0].domain == cookie.domain }
                if sameDomain.count > Self.perDomain { cookies.remove(at: Self.victim(among: sameDomain, of: cookies, now: now)) }
            }
            cookies.removeAll { $0.expires.map { $0 <= now } ?? false }
            while cookies.count > Self.total { cookies.remove(at: Self.victim(among: Array(cookies.indices), of: cookies, now: now)) }
        }
        save()
    }

    /// Which of `candidates` (indices into `cookies`, oldest first) goes when there are too many, in RFC
    /// 6265bis §5.7's order: an expired one, else the oldest that is not `Secure`, else the oldest. So a
    /// flood of plain cookies never pushes out a `Secure` one while a plain one is left to go.
    static func victim(among candidates: [Int], of cookies: [Cookie], now: Date) -> Int {
        candidates.first { cookies[$0].expires.map { $0 <= now } ?? false }
            ?? candidates.first { !cookies[$0].secure } ?? candidates[0]
    }

    /// Writes the lasting cookies to the file, owner-only, one save at a time: the cookies are read under
    /// the save's lock, so that the last save writes the newest jar. The text goes to a new file of a random
    /// name in the same directory, created exclusively and never through a link (a name planted there is not
    /// opened), then renamed over the jar's file (``writeAtomically(_:to:)``).
    private func save() {
        guard let path else { return }
        saving.withLock { saves in
            saves += 1
            _ = writeAtomically(Data(NetscapeCookieFile.write(state.withLock { $0 }, sessionCookies: keepsSessionCookies).utf8), to: path)
        }
    }
}
