import BrickRequest

extension Invocation {
    /// `options` with what the command line changes in them: the timeout, the CA bundle, the proxy, the Unix
    /// socket, the redirects.
    func transportOptions(from options: TransportOptions) -> TransportOptions {
        var options = options
        if let timeout { options.timeout = timeout }
        if let caBundle { options.caBundlePath = caBundle }
        if let proxy { options.proxy = proxy }
        if let unixSocket { options.unixSocketPath = unixSocket }
        options.followRedirects = follows
        options.maxRedirects = maxRedirects
        return options
    }
}
