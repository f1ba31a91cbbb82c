/// The timeouts the timeout bricks set: how long a whole request may take.
public enum RequestTimeout {
    /// For calls that should answer at once. 10 seconds.
    public static let short: Duration = .seconds(10)
    /// For slow reports and large bodies. 5 minutes.
    public static let long: Duration = .seconds(300)
}

extension RequestType {
    /// The session's transport options with the whole-request timeout set to `timeout`.
    public func transportOptions(timeout: Duration?) -> TransportOptions {
        var options = session.configuration.transportOptions
        options.timeout = timeout
        return options
    }
}
