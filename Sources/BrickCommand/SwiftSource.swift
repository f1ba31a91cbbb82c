import BrickRequest
import FoundationEssentials

/// The `Component` subclass a command line stands for, as Swift source (`--swift`): one brick per thing
/// the command line asks for, so that a user can paste it into a project and send it the same way.
struct SwiftSource {
    let invocation: Invocation

    /// The class, then how to send it (as a comment).
    var text: String {
        let name = className
        var lines = (needsFoundation ? ["import Foundation"] : [])  // URL, for download(to:) and file parts
            + ["import BrickRequest", "", "/// \(invocation.method) \(invocation.url)"]
        lines.append("final class \(name): " + (["Component"] + bricks).joined(separator: ", ") + " {")
        lines += members.map { "    " + $0 }
        if let parameters = parameterBuilder {
            if !members.isEmpty { lines.append("") }
            lines += ["    init() {", "        super.init(parameterBuilder: ParameterBuilder {"]
            lines += parameters.map { "            " + $0 }
            lines += ["        })", "    }"]
        }
        lines += ["}", "", "// " + call(name)]
        if let warning = retryWarning { lines.append("// " + warning) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the printed class will not do that the flags asked: retry rules on a method that is not
    /// idempotent repeat nothing the server may have received.
    var retryWarning: String? {
        guard invocation.retry != .none, !invocation.method.isIdempotent else { return nil }
        return "Note: the retry brick repeats no \(invocation.method.rawValue) the server may have received (it is not idempotent); "
            + "add IdempotencyKeyType to allow those repeats"
    }

    private var needsFoundation: Bool {
        if invocation.download != nil { return true }
        switch invocation.body {
        case .multipart, .raw: return true
        default: return false
        }
    }

    /// The method and the last two path segments that mean something, in UpperCamelCase: `GetUsersOrders`
    /// for `GET /users/7/orders`. Left out: identifiers (all digits), a segment that only repeats the method
    /// (`POST /post`), and version markers (`v1`); a path with nothing left is named by its host's first
    /// label (`PostHttpbin`), or `Root`.
    var className: String {
        guard invocation.webSocket else { return requestClassName }
        return requestClassName.dropFirst("Get".count) + "WebSocket"
    }

    private var requestClassName: String {
        var path = invocation.url.split(separator: "://", maxSplits: 1).last.map(String.init) ?? ""
        path = String(path.prefix { $0 != "?" && $0 != "#" })
        let method = invocation.method.rawValue.lowercased()
        let pieces = path.split(separator: "/")
        let meaningful = pieces.dropFirst().filter { segment in
            let text = segment.lowercased()
            let isVersion = text.count <= 3 && text.first == "v" && text.dropFirst().allSatisfy(\.isNumber)
            return text != method && !text.allSatisfy(\.isNumber) && !isVersion
        }
        var words = meaningful.suffix(2).flatMap { $0.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) } }.map(String.init)
        if words.isEmpty, let host = pieces.first?.split(separator: "@").last?.split(separator: ".").first.map(String.init),
            host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }), host.first?.isLetter == true {
            words = [host]
        }
        return ([method] + words).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + (words.isEmpty ? "Root" : "")
    }

    /// Whether a stock brick (`POSTRequestType`) names the method.
    private var hasMethodBrick: Bool {
        ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"].contains(invocation.method.rawValue)
    }

    private var bricks: [String] {
        var bricks: [String] = []
        if invocation.webSocket { return ["WebSocketRequestType", "APISessionRequestType"] + retryAndOptionBricks }
        if hasMethodBrick { bricks.append("\(invocation.method.rawValue)RequestType") }
        bricks.append("APISessionRequestType")
        switch invocation.body {
        case .none: if !invocation.query.isEmpty { bricks.append("QueryParametersType") }
        case .json: bricks.append("JSONBodyType")
        case .form: bricks.append("FormURLEncodedBodyType")
        case .multipart: bricks.append("MultipartBodyType")
        case .raw: bricks.append("RawBodyType")
        }
        bricks += retryAndOptionBricks
        if let response = responseBrick { bricks.append(response) }
        return bricks
    }

    /// The retry brick `--retry` names, and the option brick when one option is set.
    private var retryAndOptionBricks: [String] {
        var bricks: [String] = []
        switch invocation.retry {
        case .none: break
        case .soft: bricks.append("SoftAutoRetryType")
        case .hard: bricks.append("HardAutoRetryType")
        }
        switch optionSettings.map(\.field) {
        case ["timeout"]: bricks.append("CustomTimeoutType")
        case ["unixSocketPath"]: bricks.append("UnixSocketType")
        default: break
        }
        return bricks
    }

    /// What the body most likely is: JSON when JSON is sent or asked for, text when text is asked for.
    private var responseBrick: String? {
        if invocation.download != nil { return nil }
        if invocation.method == .head { return "EmptyResponseType" }
        let accept = invocation.headers["Accept"]?.lowercased() ?? ""
        if accept.contains("json") { return "JSONResponseType" }
        if accept.hasPrefix("text/") { return "StringResponseType" }
        if case .json = invocation.body { return "JSONResponseType" }
        return "DataResponseType"
    }

    private var members: [String] {
        var members: [String] = []
        if !hasMethodBrick, !invocation.webSocket { members.append("var method: HTTPMethod { HTTPMethod(\(Self.literal(invocation.method.rawValue))) }") }
        members.append("var URLString: String { \(Self.literal(urlString)) }")
        if !invocation.headers.isEmpty {
            let pairs = invocation.headers.map { "\(Self.literal($0.name)): \(Self.literal($0.value))" }
            members.append("var headers: HTTPHeaders { [\(pairs.joined(separator: ", "))] }")
        }
        if case .json(let text) = invocation.body, let json = try? JSON.parse(Data(text.utf8)) {
            members.append("var jsonBody: JSON { \(Self.expression(json)) }")
        }
        if case .raw(let bytes) = invocation.body {
            members.append("var rawBody: RequestBody { .data(Data(\(Self.literal(String(decoding: bytes, as: UTF8.self))).utf8)) }")
            if (try? JSON.parse(bytes)) != nil { members.append("var rawBodyContentType: String { \"application/json\" }") }
        }
        let settings = optionSettings
        switch settings.map(\.field) {
        case []: break
        case ["timeout"]: members.append("var requestTimeout: Duration { \(settings[0].value) }")
        case ["unixSocketPath"]: members.append("var unixSocketPath: String { \(settings[0].value) }")
        default:
            // Several options: one `transportOptions`, since each option brick supplies the whole of it.
            members.append("var transportOptions: TransportOptions {")
            members.append("    var options = session.configuration.transportOptions")
            members += settings.map { "    options.\($0.field) = \($0.value)" }
            members.append("    return options")
            members.append("}")
        }
        return members
    }

    /// The transport options the command line sets, as Swift: each field and its value.
    private var optionSettings: [(field: String, value: String)] {
        var settings: [(field: String, value: String)] = []
        if let timeout = invocation.timeout { settings.append(("timeout", Self.expression(timeout))) }
        if let caBundle = invocation.caBundle { settings.append(("caBundlePath", Self.literal(caBundle))) }
        if let socket = invocation.unixSocket { settings.append(("unixSocketPath", Self.literal(socket))) }
        switch invocation.proxy {
        case nil: break
        case .environment?: settings.append(("proxy", ".environment"))
        case .direct?: settings.append(("proxy", ".direct"))
        case .through(let proxy)?: settings.append(("proxy", ".through(Proxy(url: \(Self.literal(proxy.url))))"))
        }
        return settings
    }

    /// The URL, with the query in it when the parameters go to a form body.
    private var urlString: String {
        guard case .form = invocation.body, !invocation.query.isEmpty else { return invocation.url }
        var request = TransportRequest(url: invocation.url)
        try? ParameterEncoding.query(queryParameters, into: &request)
        return request.url
    }

    private var queryParameters: ParameterBuilder {
        var builder = ParameterBuilder()
        for (name, value) in invocation.query { builder.add(TextParameter(value: value, name: name)) }
        return builder
    }

    /// The parameters the builder holds: the form's fields, or the query's.
    private var parameterBuilder: [String]? {
        if case .multipart(let items) = invocation.body {
            return items.compactMap { item in
                switch item {
                case .field(let name, let text): "TextParameter(\(Self.literal(text)), name: \(Self.literal(name)))"
                case .file(let name, let path): "FileParameter(fileURL: URL(fileURLWithPath: \(Self.literal(path))), name: \(Self.literal(name)))"
                default: nil
                }
            }
        }
        let pairs: [(String, String)] = switch invocation.body {
        case .form(let fields): fields.map { ($0.name, $0.value) }
        default: invocation.query.map { ($0.name, $0.value) }
        }
        guard !pairs.isEmpty else { return nil }
        return pairs.map { "TextParameter(\(Self.literal($0.1)), name: \(Self.literal($0.0)))" }
    }

    private func call(_ name: String) -> String {
        if invocation.webSocket { return "let socket = try await \(name)().connect()" }
        if let download = invocation.download {
            return "let file = try await \(name)().download(to: URL(fileURLWithPath: \(Self.literal(download))))"
        }
        return "let response = try await \(name)().response()"
    }

    /// A Swift string literal of `text`.
    static func literal(_ text: String) -> String { QuotedText.swift(text) }

    /// A Swift expression for `json`, with numbers exact: integers that fit an `Int64` as literals,
    /// anything else from its text.
    static func expression(_ json: JSON) -> String {
        switch json {
        case .null: return ".null"
        case .bool(let value): return ".bool(\(value))"
        case .string(let value): return ".string(\(literal(value)))"
        case .number(let number):
            if let exact = number.int64Value, String(exact) == number.text { return ".number(\(exact))" }
            return ".number(JSONNumber(text: \(literal(number.text))) ?? 0)"
        case .array(let elements): return ".array([" + elements.map(expression).joined(separator: ", ") + "])"
        case .object(let members):
            guard !members.isEmpty else { return ".object([:])" }
            return ".object([" + members.sorted { $0.key < $1.key }.map { "\(literal($0.key)): \(expression($0.value))" }
                .joined(separator: ", ") + "])"
        }
    }

    /// `.seconds(5)` or `.milliseconds(2500)`.
    static func expression(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? ".seconds(\(milliseconds / 1000))" : ".milliseconds(\(milliseconds))"
    }
}
