import BrickRequest
import FoundationEssentials

/// The request a command line describes. It is a brick request like any other (a `Component` with the
/// session, retry rules and options of ``Invocation``); only its parts are read at run time, where a class
/// of yours would declare them (`--swift` prints that class).
final class CommandRequest: Component, RequestType, DataResponseType {
    let invocation: Invocation
    /// `Session.shared`, or one that keeps the cookies of `--session NAME`.
    let session: Session

    init(_ invocation: Invocation, session: Session) {
        self.invocation = invocation
        self.session = session
        super.init()
    }

    var method: HTTPMethod { invocation.method }
    var URLString: String { invocation.url }
    var headers: HTTPHeaders { invocation.headers }
    var autoRetryConfiguration: AutoRetryConfiguration { invocation.retry.configuration }
    /// A 2xx is a success (so that the retry rules see a 503); any other answer is still printed (see ``Call``).
    var validation: ResponseValidation { .successful }

    var transportOptions: TransportOptions { invocation.transportOptions(from: session.configuration.transportOptions) }

    func encodeBody(into request: inout TransportRequest) throws(RequestEncodingError) {
        var query = ParameterBuilder()
        for (name, value) in invocation.query { query.add(TextParameter(value: value, name: name)) }
        try ParameterEncoding.query(query, into: &request)
        switch invocation.body {
        case .none: break
        case .json(let text):
            request.body = .data(Data(text.utf8))
            ParameterEncoding.setKnownContentType("application/json", on: &request)
            if request.headers["Accept"] == nil { request.headers["Accept"] = "application/json, */*;q=0.5" }
        case .form(let fields):
            var form = ParameterBuilder()
            for field in fields { form.add(TextParameter(value: field.value, name: field.name)) }
            ParameterEncoding.formURLEncoded(form, into: &request)
        case .multipart(let items):
            var parts = ParameterBuilder()
            for item in items {
                switch item {
                case .field(let name, let text): parts.add(TextParameter(value: text, name: name))
                case .file(let name, let path): parts.add(FileParameter(fileURL: URL(fileURLWithPath: path), name: name))
                default: continue
                }
            }
            try ParameterEncoding.multipart(parts, into: &request)
        case .raw(let bytes):
            request.body = .data(bytes)
            // JSON is said to be JSON (as HTTPie does); anything else goes without a type unless a header names one.
            if (try? JSON.parse(bytes)) != nil { ParameterEncoding.setKnownContentType("application/json", on: &request) }
        }
    }
}
