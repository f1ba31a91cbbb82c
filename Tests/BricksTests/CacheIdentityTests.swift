import BrickRequest
import Foundation
import Testing
import TestServers

/// A session's cache and the identities its requests connect under: nginx (`ssl_verify_client optional`)
/// answers `/me` with the account of the client certificate the connection showed, `private` and fresh for
/// five minutes. An answer made under one certificate is never served to a request under another, nor to
/// one under none.
@Suite struct CacheIdentityTests {
    static func session(_ cache: any ResponseCache) throws -> Session {
        var configuration = Session.Configuration()
        configuration.transportOptions.caBundlePath = try Nginx.shared.get().certificatePath
        configuration.responseCache = cache
        return Session(configuration: configuration)
    }

    /// The body and cache status of a GET of `path` showing `certificate` (none when `nil`), and whether it
    /// reached nginx (an attempt was made).
    static func me(_ path: String, _ certificate: ClientCertificate?, session: Session) async throws -> (String, CacheStatus?, Bool) {
        let server = try Nginx.shared.get()
        var options = session.configuration.transportOptions
        options.clientCertificate = certificate
        let response = await session.dataResponse(
            for: TransportRequest(url: "https://localhost:\(server.optionalTLSPort)\(path)", options: options))
        let body = try response.result.get().body
        return (String(decoding: body, as: UTF8.self), response.cacheStatus, !response.attempts.isEmpty)
    }

    @Test(arguments: ["/me", "/me-modified"], ["memory", "disk"])
    func anAnswerMadeUnderOneCertificateIsNeverServedToAnotherOrToNone(path: String, store: String) async throws {
        let certificates = try Nginx.shared.get().clientCertificates
        let first = ClientCertificate(
            certificatePath: certificates.certificatePath, keyPath: certificates.encryptedKeyPath, keyPassword: certificates.keyPassword)
        let second = ClientCertificate(certificatePath: certificates.secondCertificatePath, keyPath: certificates.secondKeyPath)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache: any ResponseCache = store == "memory" ? MemoryResponseCache() : try DiskResponseCache(directory: directory)
        let session = try Self.session(cache)
        // Round 1 opens a connection per identity; round 2 (another URL, so nothing is cached yet) rides the
        // kept-alive ones.
        for round in 1...2 {
            let target = "\(path)?round=\(round)-\(store)"
            let (a, aStatus, aSent) = try await Self.me(target, first, session: session)
            let (b, bStatus, bSent) = try await Self.me(target, second, session: session)
            let (none, noneStatus, noneSent) = try await Self.me(target, nil, session: session)
            #expect(a == "account of CN=brick client" && aStatus == .miss && aSent)
            #expect(b == "account of CN=brick client two" && bStatus == .miss && bSent, "\(b)")
            #expect(none == "account of " && noneStatus == .miss && noneSent, "\(none)")
            // Each identity is served its own stored answer, without asking nginx.
            let (again, againStatus, againSent) = try await Self.me(target, first, session: session)
            let (secondAgain, secondStatus, secondSent) = try await Self.me(target, second, session: session)
            #expect(again == a && againStatus == .hit && !againSent)
            #expect(secondAgain == b && secondStatus == .hit && !secondSent)
        }
        // The disk cache holds no identity's secret: its key is a digest.
        if store == "disk" {
            let entries = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            let text = try entries.map { String(decoding: try Data(contentsOf: directory.appendingPathComponent($0)), as: UTF8.self) }.joined()
            #expect(text.contains("identity:") && !text.contains(certificates.keyPassword) && !text.contains("client-encrypted.key"))
        }
    }
}
