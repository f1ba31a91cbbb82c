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
}
