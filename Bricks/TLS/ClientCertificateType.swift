/// Shows ``clientCertificate`` to a server that asks for one (mutual TLS).
/// Sets: `transportOptions` = the session's, with `clientCertificate` = ``clientCertificate``.
///
/// Supplies `transportOptions`, like the timeout and pinning bricks: a class cannot use two of them;
/// set both fields in one `transportOptions` instead.
public protocol ClientCertificateType: RequestType {
    /// The certificate and its key (PEM files). No default.
    var clientCertificate: ClientCertificate { get }
}

extension ClientCertificateType {
    public var transportOptions: TransportOptions {
        var options = session.configuration.transportOptions
        options.clientCertificate = clientCertificate
        return options
    }
}
