/// PEM files for mutual TLS tests, made with openssl at start (EC P-256, valid two days): a client CA the
/// server trusts, two client certificates it signed (the first one's key plain and encrypted), and a
/// stranger's self-signed certificate the server does not trust.
public struct ClientCertificates: Sendable {
    /// The CA the server checks client certificates against.
    public let authorityPath: String
    public let certificatePath: String
    public let keyPath: String
    /// ``keyPath``'s key, encrypted with ``keyPassword``.
    public let encryptedKeyPath: String
    public let keyPassword = "brick-secret"
    /// A second identity the server trusts (`CN=brick client two`), with its own key.
    public let secondCertificatePath: String
    public let secondKeyPath: String
    /// A certificate and key no server here trusts.
    public let strangerCertificatePath: String
    public let strangerKeyPath: String

    /// Makes the files in `directory` with `openssl`.
    init(in directory: String, openssl: String) throws(TestServerError) {
        authorityPath = directory + "/client-ca.pem"
        certificatePath = directory + "/client.pem"
        keyPath = directory + "/client.key"
        encryptedKeyPath = directory + "/client-encrypted.key"
        secondCertificatePath = directory + "/client2.pem"
        secondKeyPath = directory + "/client2.key"
        strangerCertificatePath = directory + "/stranger.pem"
        strangerKeyPath = directory + "/stranger.key"
        let ec = "-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes"
        let script = """
            set -e
            cd '\(directory)'
            \(openssl) req -x509 \(ec) -days 2 -subj '/CN=brick client CA' -keyout client-ca.key -out client-ca.pem
            \(openssl) req \(ec) -subj '/CN=brick client' -keyout client.key -out client.csr
            \(openssl) x509 -req -in client.csr -CA client-ca.pem -CAkey client-ca.key -CAcreateserial -days 2 -out client.pem
            \(openssl) req \(ec) -subj '/CN=brick client two' -keyout client2.key -out client2.csr
            \(openssl) x509 -req -in client2.csr -CA client-ca.pem -CAkey client-ca.key -CAcreateserial -days 2 -out client2.pem
            \(openssl) pkey -in client.key -aes256 -passout pass:\(keyPassword) -out client-encrypted.key
            \(openssl) req -x509 \(ec) -days 2 -subj '/CN=stranger' -keyout stranger.key -out stranger.pem
            """
        try ChildProcess.run(["/bin/sh", "-c", script], logPath: directory + "/client-certificates.log")
    }
}
