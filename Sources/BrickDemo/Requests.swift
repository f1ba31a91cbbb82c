import BrickRequest
import BrickQueue

/// The README's example, with the class signature exactly as the README writes it.
final class GetUser: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType, JSONResponseType {
    let userID: Int

    var URLString: String { demoURL("/users/\(userID)") }

    init(userID: Int) {
        self.userID = userID
        var parameter = ParameterBuilder()
        parameter.add(TextParameter(value: userID, name: "userID"))
        super.init(parameterBuilder: parameter)
    }
}

/// A user, decoded by `DecodableResponseType`.
struct User: Decodable, Sendable {
    let id: Int
    let name: String
    let email: String
}

/// The same call, decoded into a struct.
final class GetUserProfile: Component, GETRequestType, APISessionRequestType, NonAutoRetryType, DecodableResponseType {
    typealias SerializedObject = User
    let userID: Int
    var URLString: String { demoURL("/users/\(userID)") }
    init(userID: Int) {
        self.userID = userID
        super.init()
    }
}

/// A POST with a form body built from text parameters.
final class CreateUser: Component, POSTRequestType, APISessionRequestType, NonAutoRetryType, JSONResponseType {
    var URLString: String { demoURL("/users") }
    init(name: String, age: Int?) {
        super.init(parameterBuilder: ParameterBuilder {
            TextParameter(name, name: "name")
            TextParameter(value: age, name: "age", catchOnNil: "unknown")
        })
    }
}

/// Any status code, as text.
final class GetStatus: Component, GETRequestType, APISessionRequestType, StringResponseType {
    let code: Int
    var URLString: String { demoURL("/status/\(code)") }
    init(code: Int) {
        self.code = code
        super.init()
    }
}

/// A call to an endpoint that is busy (503, `Retry-After: 0`) the first `busyTimes` times: the soft retry
/// brick tries again, up to 3 times.
final class GetFlaky: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType, StringResponseType {
    let busyTimes: Int
    var URLString: String { demoURL("/flaky/\(busyTimes)") }
    init(busyTimes: Int) {
        self.busyTimes = busyTimes
        super.init()
    }
}

/// A call to a port where nothing listens: shows the typed error.
final class GetNowhere: Component, GETRequestType, APISessionRequestType, DataResponseType {
    var URLString: String { "http://127.0.0.1:1/nothing" }
}

/// A session with a response cache in memory: GETs follow HTTP's caching rules.
let cachingSession: Session = {
    var configuration = Session.Configuration()
    configuration.responseCache = MemoryResponseCache()
    return Session(configuration: configuration)
}()

/// A cacheable call (`Cache-Control: max-age=60`): the second one is answered by the cache.
final class GetCatalog: Component, GETRequestType, CustomSessionRequestType, JSONResponseType {
    static var customSession: Session { cachingSession }
    var URLString: String { demoURL("/catalog") }
}

/// A file of `size` bytes, downloaded to disk with progress (and resumable: the server sends an ETag).
final class GetFile: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType {
    let size: Int
    var URLString: String { demoURL("/file/\(size)") }
    init(size: Int) {
        self.size = size
        super.init()
    }
}

/// A reading that may be delivered later: queued on disk, sent in order when the server can be reached.
final class ReportReading: Component, POSTRequestType, APISessionRequestType, FormURLEncodedBodyType, DeferrableRequestType {
    let deliveryQueue: DeliveryQueue
    var URLString: String { demoURL("/users") }

    init(_ reading: Int, queue: DeliveryQueue) {
        deliveryQueue = queue
        super.init(parameterBuilder: ParameterBuilder { TextParameter(reading, name: "reading") })
    }
}
