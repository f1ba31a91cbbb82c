extension TransportOptions {
    /// What a connection made under these options is made under, beyond its scheme, host and port: the
    /// client certificate with its key and passphrase, the pinned keys, the trusted authorities, and an
    /// explicit proxy with its credentials and the hosts that bypass it. `nil` when the options name none of
    /// them (the request rides whatever connection its host has).
    ///
    /// The transport keeps connections apart by it, and a session's cache keeps answers apart by it (with the
    /// Unix socket, ``identityOfAnswers``): an answer made under one identity is never given to another.
    package var connectionIdentity: [String]? {
        let proxy: String? = switch self.proxy {
        case .environment, .direct: nil
        case .through(let proxy):
            [proxy.url, proxy.username ?? "", proxy.password ?? "", proxy.bypass.joined(separator: ",")].joined(separator: "\u{0}")
        }
        let certificate = clientCertificate
        guard certificate != nil || pinnedPublicKeys != nil || caBundlePath != nil || proxy != nil else { return nil }
        return [
            certificate?.certificatePath ?? "-", certificate?.keyPath ?? "-", certificate?.keyPassword ?? "-",
            pinnedPublicKeys?.joined(separator: ",") ?? "-", caBundlePath ?? "-", proxy ?? "-",
        ]
    }

    /// Who an answer to a request with these options was given to: ``connectionIdentity``, and the Unix
    /// socket that stands for the server (another socket is another server whatever the URL says). `nil`
    /// when the options name neither.
    package var identityOfAnswers: [String]? {
        guard let socket = unixSocketPath else { return connectionIdentity }
        return (connectionIdentity ?? []) + ["unix:" + socket]
    }
}
