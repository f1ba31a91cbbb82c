import BrickTransport
import FoundationEssentials

extension HAR.Entry {
    /// The entry for `exchange`, before redaction.
    init(_ exchange: Exchange) {
        let metrics = exchange.metrics
        let timings = HAR.Timings(metrics)
        startedDateTime = exchange.started.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        time = ([timings.blocked, timings.dns, timings.connect, timings.send, timings.wait, timings.receive]
            .compactMap { $0 }.filter { $0 > 0 }.reduce(0, +) * 1000).rounded() / 1000
        self.timings = timings
        cache = HAR.Cache()
        let version = exchange.head.map { "HTTP/" + $0.version } ?? "HTTP/1.1"
        request = HAR.Request(exchange.request, body: exchange.requestBody, httpVersion: version)
        if let head = exchange.head {
            response = HAR.Response(head, body: exchange.body, leftOut: exchange.bodyOverLimit, decoded: exchange.contentDecoded)
        } else {
            response = HAR.Response(
                status: 0, statusText: "", httpVersion: "", cookies: [], headers: [], content: HAR.Content(size: 0, mimeType: ""),
                redirectURL: "", headersSize: -1, bodySize: -1)
        }
        error = exchange.error.map { HAR.RecordedError(kind: $0.kind.rawValue, message: $0.message) }
    }
}

extension HAR.Request {
    init(_ request: TransportRequest, body: Result<Data, Exchange.Omission>, httpVersion: String) {
        method = request.method.rawValue
        url = request.url
        self.httpVersion = httpVersion
        headers = request.headers.map { HAR.Pair(name: $0.name, value: $0.value) }
        queryString = Self.queryItems(of: request.url)
        cookies = request.headers.values(for: "Cookie").flatMap { $0.split(separator: ";") }.compactMap { pair in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            return HAR.Cookie(name: String(pair[..<equals]).trimmingSpaces.description, value: String(pair[pair.index(after: equals)...]))
        }
        headersSize = -1
        switch body {
        case .success(let bytes):
            bodySize = bytes.count
            if request.body?.parts.isEmpty == false {
                postData = HAR.PostData(mimeType: request.headers["Content-Type"] ?? "application/octet-stream", bytes: bytes)
            }
        case .failure(let omission):
            bodySize = -1
            postData = HAR.PostData(mimeType: request.headers["Content-Type"] ?? "application/octet-stream", comment: omission.reason)
        }
    }

    /// The URL's query items, percent-decoded, in order.
    static func queryItems(of url: String) -> [HAR.Pair] {
        guard let question = url.firstIndex(of: "?") else { return [] }
        let end = url[question...].firstIndex(of: "#") ?? url.endIndex
        return url[url.index(after: question)..<end].split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return HAR.Pair(name: Secrets.percentDecoded(parts[0]), value: parts.count > 1 ? Secrets.percentDecoded(parts[1]) : "")
        }
    }
}

extension HAR.PostData {
    init(mimeType: String, bytes: Data? = nil, comment: String? = nil) {
        self.mimeType = mimeType
        self.comment = comment
        if let bytes {
            (text, encoding) = HAR.text(of: bytes)
        }
    }
}

extension HAR.Response {
    init(_ head: ResponseHead, body: Data, leftOut: Int, decoded: Bool) {
        status = head.status
        statusText = head.reason
        httpVersion = "HTTP/" + head.version
        headers = head.headers.map { HAR.Pair(name: $0.name, value: $0.value) }
        cookies = head.headers.values(for: "Set-Cookie").compactMap(HAR.Cookie.init(setCookie:))
        redirectURL = head.headers["Location"] ?? ""
        headersSize = -1
        let mimeType = head.headers["Content-Type"] ?? ""
        if leftOut > 0 {
            content = HAR.Content(size: leftOut, mimeType: mimeType, comment: "left out: \(leftOut) bytes, over the cassette's limit")
            bodySize = -1
        } else {
            content = HAR.Content(size: body.count, mimeType: mimeType)
            (content.text, content.encoding) = HAR.text(of: body)
            bodySize = decoded ? -1 : body.count
        }
    }
}

extension HAR.Cookie {
    /// A `Set-Cookie` field's cookie: its name, value, and the attributes HAR names.
    init?(setCookie field: String) {
        let parts = field.split(separator: ";").map { $0.description.trimmingSpaces }
        guard let first = parts.first, let equals = first.firstIndex(of: "=") else { return nil }
        name = String(first[..<equals])
        value = String(first[first.index(after: equals)...])
        for attribute in parts.dropFirst() {
            let pair = attribute.split(separator: "=", maxSplits: 1)
            let key = pair.first?.lowercased() ?? ""
            let argument = pair.count > 1 ? String(pair[1]) : nil
            switch key {
            case "path": path = argument
            case "domain": domain = argument
            case "expires": expires = argument
            case "httponly": httpOnly = true
            case "secure": secure = true
            default: break
            }
        }
    }
}

extension HAR.Timings {
    /// An attempt's timings from the transfer's metrics (which count from its start), in milliseconds; -1
    /// for the steps it did not take (a reused connection's lookup, connect and handshake).
    init(_ metrics: TransferMetrics) {
        func milliseconds(_ duration: Duration) -> Double {
            // The transport measures microseconds: three decimals of a millisecond.
            let (seconds, attoseconds) = duration.components
            return Double(min(seconds, 1 << 40) * 1_000_000 + attoseconds / 1_000_000_000_000) / 1000
        }
        let reused = metrics.reusedConnection
        blocked = milliseconds(metrics.connectionWait)
        dns = reused ? -1 : milliseconds(metrics.dns)
        connect = reused ? -1 : milliseconds(metrics.connect + metrics.tls)
        ssl = reused || metrics.tls == .zero ? -1 : milliseconds(metrics.tls)
        send = 0
        wait = milliseconds(metrics.waiting)
        let before = metrics.firstByte > .zero ? metrics.firstByte : metrics.requestStart
        receive = metrics.total > before ? milliseconds(metrics.total - before) : 0
    }
}

extension HAR {
    /// A body as HAR text: as it is when it is UTF-8 without NUL bytes, in base64 otherwise.
    static func text(of body: Data) -> (text: String, encoding: String?) {
        if !body.contains(0), let text = String(validating: body, as: UTF8.self) { return (text, nil) }
        return (body.base64EncodedString(), "base64")
    }
}
