/// A client certificate for mutual TLS: the certificate the client shows a server that asks for one, and
/// its private key, both PEM files.
public struct ClientCertificate: Sendable, Equatable {
    /// The certificate (PEM), possibly followed by its intermediates.
    public var certificatePath: String
    /// The private key (PEM). `nil` when it sits in the certificate's file.
    public var keyPath: String?
    /// The key's passphrase, when it is encrypted. Never logged.
    public var keyPassword: String?

    /// A certificate and key (PEM files).
    public init(certificatePath: String, keyPath: String? = nil, keyPassword: String? = nil) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.keyPassword = keyPassword
    }
}

extension ClientCertificate: CustomReflectable {
    /// What `dump()` and debuggers show: the paths, with the passphrase hidden.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "certificatePath": certificatePath, "keyPath": keyPath as Any,
            "keyPassword": keyPassword.map { _ in URLPassword.placeholder } as Any,
        ])
    }
}

extension ClientCertificate: CustomStringConvertible {
    /// The paths, and whether a passphrase is set (not the passphrase).
    public var description: String {
        "ClientCertificate(\(certificatePath), key: \(keyPath ?? "in the certificate file")"
            + (keyPassword == nil ? ")" : ", passphrase set)")
    }
}
