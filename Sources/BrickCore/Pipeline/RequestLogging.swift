/// What a request logger writes about a request: its options.
///
/// A request names its options with ``RequestType/requestLogging`` (the logging bricks do); a request
/// that names none gets its logger's defaults.
public struct RequestLogging: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The method and URL.
    public static let requestURL = RequestLogging(rawValue: 1 << 0)
    /// How long the request took.
    public static let time = RequestLogging(rawValue: 1 << 1)
    /// The response's status code.
    public static let responseCode = RequestLogging(rawValue: 1 << 2)
    /// The request's header fields (secrets redacted).
    public static let requestHeaders = RequestLogging(rawValue: 1 << 3)
    /// The request's body (in-memory bodies only; files and streams are named, not read).
    public static let requestBody = RequestLogging(rawValue: 1 << 4)
    /// The response's header fields (secrets redacted).
    public static let responseHeaders = RequestLogging(rawValue: 1 << 5)
    /// The response's body.
    public static let responseBody = RequestLogging(rawValue: 1 << 6)
    /// The request as a `curl` command line (secrets redacted).
    public static let curlCommand = RequestLogging(rawValue: 1 << 7)

    /// URL, status and time: the default.
    public static let `default`: RequestLogging = [.requestURL, .responseCode, .time]
    /// Everything.
    public static let all: RequestLogging = [.requestURL, .time, .responseCode, .requestHeaders, .requestBody,
                                             .responseHeaders, .responseBody, .curlCommand]
    /// Nothing.
    public static let disabled: RequestLogging = []
}
