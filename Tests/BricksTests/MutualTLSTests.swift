import BrickRequest
import Testing
import TestServers

/// A GET that shows a client certificate to nginx's mutual-TLS port (`ssl_verify_client on`).
final class CertifiedCall: Component, GETRequestType, ClientCertificateType, StringResponseType, NonAutoRetryType {
    let session: Session
    let URLString: String
    let clientCertificate: ClientCertificate
    init(_ url: String, certificate: ClientCertificate, session: Session) {
        self.session = session
        URLString = url
        clientCertificate = certificate
        super.init()
    }
}

/// Mutual TLS: a client certificate and key (plain or with a passphrase) per request (`ClientCertificateType`)
/// or per session (`TransportOptions.clientCertificate`).
@Suite struct MutualTLSTests {
    /// A session that trusts nginx's server certificate.
    static func session(_ certificate: ClientCertificate? = nil) throws -> Session {
        var configuration = Session.Configuration()
        configuration.transportOptions.caBundlePath = try Nginx.shared.get().certificatePath
        configuration.transportOptions.clientCertificate = certificate
        return Session(configuration: configuration)
    }

    @Test func theServerAcceptsTheCertificateWithAPlainOrAnEncryptedKey() async throws {
        let server = try Nginx.shared.get()
        let files = server.clientCertificates
        let url = "https://localhost:\(server.mutualTLSPort)/whoami"
        let plain = ClientCertificate(certificatePath: files.certificatePath, keyPath: files.keyPath)
        let subject = try await CertifiedCall(url, certificate: plain, session: try Self.session()).response()
        #expect(subject == "CN=brick client")

        let encrypted = ClientCertificate(
            certificatePath: files.certificatePath, keyPath: files.encryptedKeyPath, keyPassword: files.keyPassword)
        let session = try Self.session(encrypted)  // per session: every request shows it, on one connection
        for _ in 0..<2 {
            let body = try await session.send(.get, url)
            #expect(String(decoding: body.body, as: UTF8.self) == "CN=brick client")
        }
        #expect(!"\(encrypted)".contains(files.keyPassword))
    }

    @Test func withoutATrustedCertificateNginxAnswers400AndAWrongPassphraseFailsBeforeSending() async throws {
        let server = try Nginx.shared.get()
        let files = server.clientCertificates
        let url = "https://localhost:\(server.mutualTLSPort)/whoami"
        // nginx completes the handshake and answers 400 ("No required SSL certificate was sent"): an HTTP
        // answer, so a validation failure with the status, not a TLS error.
        let session = try Self.session()
        let none = await session.dataResponse(
            for: TransportRequest(url: url, options: session.configuration.transportOptions), validation: .successful)
        #expect(none.error?.response?.head.status == 400, "\(String(describing: none.error))")
        let stranger = ClientCertificate(certificatePath: files.strangerCertificatePath, keyPath: files.strangerKeyPath)
        let refused = await CertifiedCall(url, certificate: stranger, session: try Self.session()).dataResponse()
        #expect(refused.statusCode == 400)

        let wrong = ClientCertificate(certificatePath: files.certificatePath, keyPath: files.encryptedKeyPath, keyPassword: "guess")
        let failed = await CertifiedCall(url, certificate: wrong, session: try Self.session()).dataResponse()
        #expect(failed.error?.transportError?.kind == .tlsFailure)
        #expect(failed.error?.requestMayHaveArrived == false)
        #expect(!"\(failed.error.map { "\($0)" } ?? "")".contains("guess"))
    }

    /// What `/whoami` answers on one session for each identity in turn: the subject nginx verified on the
    /// connection the request rode.
    static func subjects(_ identities: [ClientCertificate], session: Session, http1: Bool) async throws -> [String] {
        let server = try Nginx.shared.get()
        var subjects: [String] = []
        for identity in identities {
            var options = session.configuration.transportOptions
            options.clientCertificate = identity
            if http1 { options.httpVersion = .http1Only }
            let response = await session.dataResponse(
                for: TransportRequest(url: "https://localhost:\(server.mutualTLSPort)/whoami", options: options))
            switch response.result {
            case .success(let answer): subjects.append(String(decoding: answer.body, as: UTF8.self))
            case .failure(let error): subjects.append(error.transportError?.kind == .tlsFailure ? "tlsFailure" : "\(error)")
            }
        }
        return subjects
    }

    @Test(arguments: [true, false])
    func noRequestRidesAConnectionMadeUnderAnotherIdentity(http1: Bool) async throws {
        let files = try Nginx.shared.get().clientCertificates
        let first = ClientCertificate(certificatePath: files.certificatePath, keyPath: files.keyPath)
        let second = ClientCertificate(certificatePath: files.secondCertificatePath, keyPath: files.secondKeyPath)
        let session = try Self.session()
        // Fresh, then warm: each identity's connection is kept and reused by that identity only.
        let subjects = try await Self.subjects([first, second, first, second], session: session, http1: http1)
        #expect(subjects == ["CN=brick client", "CN=brick client two", "CN=brick client", "CN=brick client two"])

        // With a warm connection of the first identity open, requests whose key cannot be used fail as they do
        // on a fresh session, before anything is sent.
        let otherKey = ClientCertificate(certificatePath: files.certificatePath, keyPath: files.secondKeyPath)
        let wrongPassphrase = ClientCertificate(certificatePath: files.certificatePath, keyPath: files.encryptedKeyPath, keyPassword: "guess")
        let missingKey = ClientCertificate(certificatePath: files.certificatePath, keyPath: files.keyPath + ".missing")
        let unusable = try await Self.subjects([first, otherKey, wrongPassphrase, missingKey, first], session: session, http1: http1)
        #expect(unusable == ["CN=brick client", "tlsFailure", "tlsFailure", "tlsFailure", "CN=brick client"])
    }
}
