/// Accepts the server only if its certificate carries one of ``pinnedPublicKeys``, on top of the usual
/// chain and name checks; any other key fails with `tlsFailure`.
/// Sets: `transportOptions` = the session's, with `pinnedPublicKeys` = ``pinnedPublicKeys``.
///
/// Supplies `transportOptions`, like the timeout bricks: a class cannot use both (the compiler refuses the
/// ambiguity); set `TransportOptions.pinnedPublicKeys` and the timeout in one `transportOptions` instead.
public protocol PinnedPublicKeyType: RequestType {
    /// The pins, `sha256//<base64 of the SHA-256 of the DER public key>` each. No default.
    var pinnedPublicKeys: [String] { get }
}

extension PinnedPublicKeyType {
    public var transportOptions: TransportOptions {
        var options = session.configuration.transportOptions
        options.pinnedPublicKeys = pinnedPublicKeys
        return options
    }
}
