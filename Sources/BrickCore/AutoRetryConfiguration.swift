/// How a request is retried when it fails: the seed's four fields.
///
/// The presets ``none``, ``soft`` and ``hard`` are what the retry bricks set. Retrying itself arrives with
/// the reachability issue; until then the configuration is carried with each request and not yet acted on.
public struct AutoRetryConfiguration: Sendable, Equatable {
    /// The base delay between attempts. Default is 5 seconds.
    public var breakTime: Duration
    /// How many times a failed request is retried (not counting the first attempt). Default is 5.
    public var maxRetryCount: Int
    /// Whether retries go on while the process has no foreground work waiting on them. Default is `true`.
    public var enableBackgroundRetry: Bool
    /// Whether a request fails at once while its host is unreachable, instead of waiting. Default is `false`.
    public var failWhenNotReachable: Bool

    /// Creates a configuration; the defaults are the seed's.
    public init(
        breakTime: Duration = .seconds(5), maxRetryCount: Int = 5, enableBackgroundRetry: Bool = true,
        failWhenNotReachable: Bool = false
    ) {
        self.breakTime = breakTime
        self.maxRetryCount = maxRetryCount
        self.enableBackgroundRetry = enableBackgroundRetry
        self.failWhenNotReachable = failWhenNotReachable
    }

    /// Never retried.
    public static let none = AutoRetryConfiguration(maxRetryCount: 0)
    /// Retried up to 3 times.
    public static let soft = AutoRetryConfiguration(maxRetryCount: 3)
    /// Retried up to 10 times.
    public static let hard = AutoRetryConfiguration(maxRetryCount: 10)
}
