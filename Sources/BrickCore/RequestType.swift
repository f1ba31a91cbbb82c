/// What a request sends and where: the method, the URL, headers, the session, retry and transport options.
///
/// Bricks supply these through protocol extensions; a class reads as its own specification:
/// `class GetUser: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType, JSONResponseType`.
/// Two bricks that supply the same requirement (say `GETRequestType` and `POSTRequestType`) make the class
/// ambiguous and the compiler refuses it.
public protocol RequestType: AnyObject {
    /// The HTTP method. No default: conform to a method brick such as `GETRequestType`.
    var method: HTTPMethod { get }
    /// The session that sends the request. No default: conform to a session brick such as
    /// `APISessionRequestType`.
    var session: Session { get }
    /// The URL to call. Default is ``path`` resolved against ``baseURL`` (an absolute path ignores the base).
    var URLString: String { get }
    /// The base URL that ``path`` is resolved against. Default is the session's
    /// ``Session/Configuration/baseURL``.
    var baseURL: String? { get }
    /// The path of the call, relative to ``baseURL``, or an absolute URL. Default is `""`.
    var path: String { get }
    /// Header fields of this request, sent after the session's. Default is none.
    var headers: HTTPHeaders { get }
    /// How the request is retried. Default is ``AutoRetryConfiguration/none``.
    var autoRetryConfiguration: AutoRetryConfiguration { get }
    /// Timeouts, redirects and caps of this request. Default is the session's
    /// ``Session/Configuration/transportOptions``.
    var transportOptions: TransportOptions { get }
    /// The parameters to send. ``Component`` supplies its own.
    var parameterBuilder: ParameterBuilder { get }
}

extension RequestType {
    public var URLString: String { URLResolution.resolve(path, against: baseURL) }
    public var baseURL: String? { session.configuration.baseURL }
    public var path: String { "" }
    public var headers: HTTPHeaders { [:] }
    public var autoRetryConfiguration: AutoRetryConfiguration { .none }
    public var transportOptions: TransportOptions { session.configuration.transportOptions }
}
