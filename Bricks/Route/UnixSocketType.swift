/// Connects to ``unixSocketPath`` instead of the URL's host and port: a local daemon's API (Docker's
/// `/var/run/docker.sock`). The URL's host still goes in `Host`; no network route is waited for.
/// Sets: `transportOptions` = the session's, with `unixSocketPath` = ``unixSocketPath``.
///
/// Supplies `transportOptions`, like the timeout and TLS bricks: a class cannot use two of them (the
/// compiler refuses the ambiguity); set both fields in one `transportOptions` instead.
public protocol UnixSocketType: RequestType {
    /// The socket's path. No default.
    var unixSocketPath: String { get }
}

extension UnixSocketType {
    public var transportOptions: TransportOptions {
        var options = session.configuration.transportOptions
        options.unixSocketPath = unixSocketPath
        return options
    }
}
