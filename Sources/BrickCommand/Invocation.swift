import BrickRequest
import FoundationEssentials
import BrickSystem

/// What one command line asks for: `brick [METHOD] URL [ITEM...] [OPTION...]`.
struct Invocation: Sendable {
    /// What to do instead of a request.
    enum Action: Sendable, Equatable { case send, printSwift, help, version, completion(Completion.Shell) }

    var action = Action.send
    /// `brick ws URL`: a WebSocket instead of a request (``WebSocketCall``).
    var webSocket = false
    var method = HTTPMethod.get
    var url = ""
    var query: [(name: String, value: String)] = []
    var headers = HTTPHeaders()
    var body = CommandBody.none
    var download: String?
    var retry = RetryChoice.none
    var timeout: Duration?
    var caBundle: String?
    /// `--proxy URL` or `--proxy none`; `nil` leaves the environment's (`http_proxy` and friends).
    var proxy: ProxyPolicy?
    var unixSocket: String?
    var timing = false
    var verbose = false
    /// Whether redirects are followed (`--follow`, the default; `--no-follow`), and at most how many
    /// (`--max-redirects`).
    var follows = true
    var maxRedirects = 10
    /// Pretty-printed JSON: `nil` when standard output is a terminal decides.
    var pretty: Bool?
    /// Whether standard input is never read as the body (`--ignore-stdin`).
    var ignoresStandardInput = false
    /// What goes to standard output (`--print`); `nil` when whether it is a terminal decides.
    var shown: Shown?
    /// `--session NAME`: headers and cookies kept between calls (``SavedSession``).
    var session: String?
    /// `--har FILE`: the call's exchanges written to a HAR file, secrets redacted unless `--har-secrets`.
    var har: String?
    var harSecrets = false
    /// `-s`, as curl's: no progress bar and no summary line (errors are still said).
    var quiet = false
    /// The method `-X`, `--request`, `-I` or `--head` names (curl's spelling of a method before the URL).
    var methodOption: HTTPMethod?
    /// What the options say that only the items make sense of: the body's form, the credentials.
    var parsing = (form: false, json: String?.none, credentials: String?.none, authType: "basic")

    /// The retry rules `--retry` names.
    enum RetryChoice: String, Sendable {
        case none, soft, hard

        var configuration: AutoRetryConfiguration {
            switch self {
            case .none: .none
            case .soft: .soft
            case .hard: .hard
            }
        }
    }

    /// Reads the arguments after the command's name. `standardInput` reads what a pipe or a file on standard
    /// input holds (`nil` when it is a terminal or nothing): it is the body when the command line sends none.
    ///
    /// `password` asks for the password of `-a USER` given without one (on a terminal, as HTTPie does);
    /// `nil` when nobody can be asked.
    init(
        parsing arguments: [String], standardInput: () throws(UsageError) -> Data? = { nil },
        password: (String) -> String? = { _ in nil }
    ) throws(UsageError) {
        var positionals: [String] = []
        var remaining = arguments[...]
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            guard !optionsEnded, argument.hasPrefix("-"), argument.count > 1 else {
                positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true } else { try read(argument, from: &remaining) }
        }
        guard action == .send || action == .printSwift else { return }
        if positionals.first == "ws", positionals.count > 1 {
            webSocket = true
            positionals.removeFirst()
        }
        if webSocket { try takeWebSocket(positionals, password: password) } else {
            try take(positionals, standardInput: standardInput, password: password)
        }
    }

    /// Reads one option, and its value from `remaining` when it takes one and was not given as `--name=value`.
    private mutating func read(_ argument: String, from remaining: inout ArraySlice<String>) throws(UsageError) {
        let (option, inlineValue) = Self.split(argument)
        func value() throws(UsageError) -> String {
            if let inlineValue { return inlineValue }
            guard let next = remaining.popFirst() else { throw UsageError("\(option) needs a value") }
            return next
        }
        switch option {
        case "-h", "--help": action = .help
        case "--version": action = .version
        case "--swift": action = .printSwift
        case "-v", "--verbose": verbose = true
        case "--timing": timing = true
        case "--form", "-f": parsing.form = true
        case "--pretty": pretty = true
        case "--raw": pretty = false
        case "--json", "-j": parsing.json = try value()
        case "--auth", "-a": parsing.credentials = try Self.credentials(try value())
        case "--auth-env": parsing.credentials = try Self.credentials(fromEnvironment: try value())
        case "--auth-type", "-A": parsing.authType = try value().lowercased()
        case "--ignore-stdin": ignoresStandardInput = true
        case "--print", "-p": shown = try Shown(parsing: value())
        case "--session": session = try value()
        case "--har": har = try value()
        case "--har-secrets": harSecrets = true
        case "--completion": action = .completion(try Self.shell(try value()))
        case "--download", "-d":
            let file = try value()
            // curl's `-d a=b` sends data; here `-d` is HTTPie's --download, so a field is not taken for a file.
            if option == "-d", file.contains("=") {
                throw UsageError("-d is --download FILE (as in HTTPie); to send \(file), write it as an item: brick URL \(file)")
            }
            download = file
        case "-H", "--header", "-X", "--request", "-I", "--head", "-o", "--output", "-s", "--silent", "-L", "--location", "--follow":
            try readCurls(option, value)
        case "--no-follow": follows = false
        case "--max-redirects":
            let text = try value()
            guard let count = Int(text), (0...100).contains(count) else { throw UsageError("--max-redirects takes 0 to 100, not \(text)") }
            maxRedirects = count
        case "--cacert": caBundle = try value()
        case "--unix-socket": unixSocket = try value()
        case "--proxy":
            let url = try value()
            proxy = url == "none" ? .direct : .through(Proxy(url: Self.completed(url)))
        case "--retry":
            let name = try value()
            guard let choice = RetryChoice(rawValue: name) else { throw UsageError("--retry takes none, soft or hard, not \(name)") }
            retry = choice
        case "--timeout":
            let text = try value()
            guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                throw UsageError("--timeout takes seconds between 0 and 86400, not \(text)")
            }
            timeout = .milliseconds(Int64((seconds * 1000).rounded(.up)))
        default: throw UsageError(OptionHints.unknown(option))
        }
    }

    /// The method, the URL and the items after the options were read; the body from standard input when the
    /// command line sends none.
    private mutating func take(
        _ words: [String], standardInput: () throws(UsageError) -> Data?, password: (String) -> String?
    ) throws(UsageError) {
        var positionals = words
        // `brick --download URL`: the value was the URL, and the file is named after its last path segment.
        if let value = download, positionals.isEmpty || (positionals.count == 1 && Self.looksLikeMethod(positionals[0])) {
            positionals.append(value)
            download = Self.fileName(for: Self.completed(value))
        }
        var methodNamed = positionals.count > 1 && Self.looksLikeMethod(positionals[0])
        if methodNamed {
            if methodOption != nil { throw UsageError("the method is named twice: before the URL and with -X (or -I)") }
            method = HTTPMethod(positionals[0].uppercased())
            positionals.removeFirst()
        }
        if let methodOption {
            method = methodOption
            methodNamed = true
        }
        guard let url = positionals.first else { throw UsageError("a URL is needed") }
        self.url = Self.completed(url)
        var fields: [RequestItem] = []
        for text in positionals.dropFirst() {
            switch try RequestItem(parsing: text) {
            case .query(let name, let value): query.append((name, value))
            case .header(let name, let value): headers.add(name: name, value: value)
            case let item: fields.append(item)
            }
        }
        body = try CommandBody(json: parsing.json, fields: fields, form: parsing.form)
        if body == .none, !ignoresStandardInput, let piped = try standardInput(), !piped.isEmpty { body = .raw(piped) }
        if !methodNamed, body != .none { method = .post }  // something to send and no method named, as curl -d does
        if let credentials = parsing.credentials { try authorize(credentials, type: parsing.authType, password: password) }
    }

    /// `--name=value` as the option and its value; anything else as the option alone.
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// A method: a known one in any case (`get`), or any other name in capitals (`PURGE`), so that a bare
    /// host such as `localhost` stays a URL.
    static func looksLikeMethod(_ text: String) -> Bool {
        let known: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"]
        if known.contains(text.uppercased()) { return true }
        return !text.isEmpty && text.count <= 20 && text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
    }

    /// The file a download of `url` goes to when none is named: its last path segment (without the query),
    /// or `download` when it has none.
    static func fileName(for url: String) -> String {
        let afterScheme = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? url[...]
        let path = afterScheme.drop { $0 != "/" }.prefix { $0 != "?" && $0 != "#" }
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        return last.isEmpty || last == "." || last == ".." ? "download" : last
    }

    /// `:8080/path` is `http://localhost:8080/path`, and a URL without a scheme is `http://` plus it.
    static func completed(_ url: String) -> String {
        if url.hasPrefix(":") { return "http://localhost" + url }
        return url.contains("://") ? url : "http://" + url
    }
}
