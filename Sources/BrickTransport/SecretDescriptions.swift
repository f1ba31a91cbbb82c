/// What `"\(value)"`, `dump(value)` and a debugger show of the values a request travels in: everything but
/// its secrets (``Secrets``): a URL's password and token-like query values, the values of credential
/// fields. A log, a crash report or a test failure that prints one of them leaks nothing.
extension HTTPHeaders.Field: CustomStringConvertible, CustomReflectable {
    /// `Name: value`, the value hidden when the name is a secret field's.
    public var description: String { "\(name): \(Secrets.header(name, value))" }

    public var customMirror: Mirror { Mirror(self, children: ["name": name, "value": Secrets.header(name, value)]) }
}

extension HTTPHeaders: CustomReflectable {
    public var customMirror: Mirror { Mirror(self, children: ["fields": fields], displayStyle: .struct) }
}

extension TransportRequest: CustomStringConvertible, CustomReflectable {
    /// The method and the URL, and the header fields, secrets hidden.
    public var description: String {
        "\(method.rawValue) \(Secrets.url(url))" + (headers.isEmpty ? "" : " [" + headers.map(\.description).joined(separator: ", ") + "]")
    }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "method": method, "url": Secrets.url(url), "headers": headers, "body": body as Any, "options": options,
            "mayBeSentTwice": mayBeSentTwice, "needsFreshConnection": needsFreshConnection,
        ], displayStyle: .struct)
    }
}

extension CallLine: CustomReflectable {
    public var customMirror: Mirror { Mirror(self, children: ["method": method, "url": Secrets.url(url)], displayStyle: .struct) }
}

extension TransferMetrics: CustomReflectable {
    public var customMirror: Mirror {
        Mirror(self, children: [
            "nameLookupEnd": nameLookupEnd, "connectEnd": connectEnd, "tlsEnd": tlsEnd, "requestStart": requestStart,
            "firstByte": firstByte, "total": total, "connectionWait": connectionWait, "reusedConnection": reusedConnection,
            "redirectCount": redirectCount, "effectiveURL": Secrets.url(effectiveURL), "bytesSent": bytesSent,
            "bytesReceived": bytesReceived,
        ], displayStyle: .struct)
    }
}
