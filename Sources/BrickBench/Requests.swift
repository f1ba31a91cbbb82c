import BrickRequest
import FoundationEssentials

/// The benchmark's session: default pool (64 connections per host), default options, except what the
/// referee's HTTPS scenarios ask for: its CA (`BENCH_CA_FILE`, through the library's own CA option),
/// HTTP/1.1 only in H1 and H3, and a new connection for every request in H3.
let benchSession: Session = {
    var configuration = Session.Configuration()
    if let trust = ProcessInfo.processInfo.environment["BENCH_CA_FILE"], !trust.isEmpty {
        configuration.transportOptions.caBundlePath = trust
    }
    let scenario = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : ""
    if scenario == "H1" || scenario == "H3" { configuration.transportOptions.httpVersion = .http1Only }
    if scenario == "H3" { configuration.transportOptions.reusesConnections = false }
    if benchShape == "features" {
        // A session with the features users turn on: a response cache, a cookie jar and an observer (with the
        // default origin protection).
        configuration.responseCache = MemoryResponseCache()
        configuration.cookies = CookieJar()
        configuration.observers = [PassingObserver()]
    }
    return Session(configuration: configuration)
}()

/// BRICK_BENCH_SHAPE: `readme` (the README's request shape), `features` (S1 on a session with the features
/// users turn on), or nothing.
let benchShape = ProcessInfo.processInfo.environment["BRICK_BENCH_SHAPE"] ?? ""

/// An observer that watches every call and attempt and changes nothing: what an observer costs.
struct PassingObserver: CallObserver {
    func observeCall(_ call: ObservedCall, _ body: () async -> CallEnd) async -> CallEnd { await body() }
    func observeAttempt(_ attempt: ObservedAttempt, _ body: () async -> AttemptEnd) async -> AttemptEnd { await body() }
}

/// S1, S2, S3: a GET whose body is collected (or streamed) as raw bytes.
final class BenchGet: Component, GETRequestType, CustomSessionRequestType, NonAutoRetryType, DataResponseType {
    static var customSession: Session { benchSession }
    let URLString: String
    init(url: String) {
        URLString = url
        super.init()
    }
}

/// S4: a POST with a 1 KiB form body (`b=` and 1022 bytes).
final class BenchPost: Component, POSTRequestType, CustomSessionRequestType, NonAutoRetryType, DataResponseType {
    static var customSession: Session { benchSession }
    static let payload = ParameterBuilder { TextParameter(String(repeating: "x", count: 1022), name: "b") }
    let URLString: String
    init(url: String) {
        URLString = url
        super.init(parameterBuilder: Self.payload)
    }
}

/// S1readme and H1 with `BRICK_BENCH_SHAPE=readme`: the README's own shape, the session it takes being the
/// benchmark's (bound as `Session.current` around the run), the default origin protection and soft retry.
final class ReadmeGet: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType, DataResponseType {
    let URLString: String
    init(url: String) {
        URLString = url
        super.init()
    }
}

/// S4 with `BRICK_BENCH_SHAPE=readme`: the README's shape for a POST.
final class ReadmePost: Component, POSTRequestType, APISessionRequestType, SoftAutoRetryType, DataResponseType {
    let URLString: String
    init(url: String) {
        URLString = url
        super.init(parameterBuilder: BenchPost.payload)
    }
}

/// S5: one element of the ~10 MB JSON array the benchmark decodes.
struct Account: Codable, Sendable {
    struct Address: Codable, Sendable {
        let street: String
        let city: String
        let zip: String
    }
    let id: Int
    let name: String
    let email: String
    let active: Bool
    let score: Double
    let tags: [String]
    let address: Address
}

/// S5json: the array read by the untyped JSON brick.
final class BenchJSON: Component, GETRequestType, CustomSessionRequestType, NonAutoRetryType, JSONResponseType {
    static var customSession: Session { benchSession }
    let URLString: String
    init(url: String) {
        URLString = url
        super.init()
    }
}

/// S5: the array decoded by the stock Decodable response brick.
final class BenchAccounts: Component, GETRequestType, CustomSessionRequestType, NonAutoRetryType, DecodableResponseType {
    typealias SerializedObject = [Account]
    static var customSession: Session { benchSession }
    let URLString: String
    init(url: String) {
        URLString = url
        super.init()
    }
}
