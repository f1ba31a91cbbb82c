/// Hedges the request: when it has no response after 50 ms, the same request goes again beside it, two
/// more at most, and the first response wins (`Hedging.standard`; implement `hedgingPolicy` for other
/// numbers). Only for requests that may be sent twice: a class with a method that is not idempotent (POST,
/// PATCH) and no `IdempotencyKeyType` or `IdempotentRequestType` does not compile, for want of
/// `hedgingPolicy`.
/// Sets: `hedging` = `hedgingPolicy`.
public protocol HedgedRequestType: RequestType {
    /// The hedging of this request. Default is `Hedging.standard` for GET, HEAD, OPTIONS, TRACE, PUT and
    /// DELETE requests and for those with an idempotency key or declared idempotent; none otherwise.
    var hedgingPolicy: Hedging { get }
}

extension HedgedRequestType {
    public var hedging: Hedging? { hedgingPolicy }
}

extension HedgedRequestType where Self: GETRequestType { public var hedgingPolicy: Hedging { .standard } }
extension HedgedRequestType where Self: HEADRequestType { public var hedgingPolicy: Hedging { .standard } }
extension HedgedRequestType where Self: OPTIONSRequestType { public var hedgingPolicy: Hedging { .standard } }
extension HedgedRequestType where Self: TRACERequestType { public var hedgingPolicy: Hedging { .standard } }
extension HedgedRequestType where Self: PUTRequestType { public var hedgingPolicy: Hedging { .standard } }
extension HedgedRequestType where Self: DELETERequestType { public var hedgingPolicy: Hedging { .standard } }
extension HedgedRequestType where Self: IdempotencyKeyType { public var hedgingPolicy: Hedging { .standard } }
extension HedgedRequestType where Self: IdempotentRequestType { public var hedgingPolicy: Hedging { .standard } }
