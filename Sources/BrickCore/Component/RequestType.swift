/// What a request sends and where: the method, the URL, headers, body, the session, retry and the
/// pipeline's per-request parts.
///
/// Bricks supply these through protocol extensions; a class reads as its own specification:
/// `class GetUser: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType, JSONResponseType`.
/// Each requirement is one family of bricks, so two bricks of one family (say `GETRequestType` and
/// `POSTRequestType`, or `JSONBodyType` and `MultipartBodyType`) make the class ambiguous and the
/// compiler refuses it.
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
    /// Header fields of this request, sent after the session's (and replacing fields of the same name).
    /// Default is none.
    var headers: HTTPHeaders { get }
    /// How the request is retried. Default is ``AutoRetryConfiguration/none``.
    var autoRetryConfiguration: AutoRetryConfiguration { get }
    /// Whether the request may be sent again after it may have reached the server. Default is
    /// ``Idempotency/byMethod`` (GET, HEAD, OPTIONS, TRACE, PUT and DELETE may).
    var idempotency: Idempotency { get }
    /// How the request takes part in its origin's protection on its session: whether its retries draw on
    /// the origin's retry budget, whether it goes through the origin's circuit breaker. Default is
    /// ``OriginPolicy/sessionDefault``; `CircuitBreakerType` and `UnbudgetedRetryType` set it.
    var originPolicy: OriginPolicy { get }
    /// Whether and how the request is hedged: another request beside a slow one, the first response wins
    /// (``Hedging``). Only for a request that may be sent twice: otherwise the call fails with
    /// ``RequestEncodingError/notHedgeable(method:)``, nothing sent. Default is `nil`; `HedgedRequestType` sets it.
    var hedging: Hedging? { get }
    /// How a GET uses the session's ``Session/Configuration/responseCache``. Default is
    /// ``CacheMode/default`` (HTTP's rules); without a cache on the session it has no effect.
    var cacheMode: CacheMode { get }
    /// Timeouts, redirects and caps of this request. Default is the session's
    /// ``Session/Configuration/transportOptions``.
    var transportOptions: TransportOptions { get }
    /// The parameters to send. ``Component`` supplies its own.
    var parameterBuilder: ParameterBuilder { get }
    /// Puts the parameters and the body into `request` (which already has its URL and headers).
    /// Default is ``ParameterEncoding/methodDependent(_:into:)``: the query for GET, HEAD and DELETE, a form
    /// body otherwise, a multipart body when there are files. Body bricks replace it.
    func encodeBody(into request: inout TransportRequest) throws(RequestEncodingError)
    /// Which responses are successful. Default is ``ResponseValidation/successful`` (any 2xx).
    var validation: ResponseValidation { get }
    /// The interceptor that authenticates this request. Default is `nil`; auth bricks set it.
    var authentication: (any Interceptor)? { get }
    /// What request loggers write about this request. Default is `nil` (the logger's own defaults).
    var requestLogging: RequestLogging? { get }
    /// Modifiers and interceptors of this request alone, run with the session's. Default is none.
    var modifiers: [any RequestModifier] { get }
}

extension RequestType {
    public var URLString: String { URLResolution.resolve(path, against: baseURL) }
    public var baseURL: String? { session.configuration.baseURL }
    public var path: String { "" }
    public var headers: HTTPHeaders { [:] }
    public var autoRetryConfiguration: AutoRetryConfiguration { .none }
    public var idempotency: Idempotency { .byMethod }
    public var originPolicy: OriginPolicy { .sessionDefault }
    public var hedging: Hedging? { nil }
    public var cacheMode: CacheMode { .default }
    public var transportOptions: TransportOptions { session.configuredTransportOptions }
    public func encodeBody(into request: inout TransportRequest) throws(RequestEncodingError) {
        try ParameterEncoding.methodDependent(parameterBuilder, into: &request)
    }
    public var validation: ResponseValidation { .successful }
    public var authentication: (any Interceptor)? { nil }
    public var requestLogging: RequestLogging? { nil }
    public var modifiers: [any RequestModifier] { [] }
}
