extension Invocation {
    /// `brick ws URL [ITEM...]`: the URL (`ws://` when it names no scheme; `:8080/path` is on localhost) and
    /// the items a handshake can carry, headers and query fields; standard input is the messages, never read
    /// here.
    mutating func takeWebSocket(_ words: [String], password: (String) -> String?) throws(UsageError) {
        guard let url = words.first else { throw UsageError("brick ws needs a URL (brick ws wss://echo.example/socket)") }
        if url.hasPrefix(":") { self.url = "ws://localhost" + url } else { self.url = url.contains("://") ? url : "ws://" + url }
        for text in words.dropFirst() {
            switch try RequestItem(parsing: text) {
            case .query(let name, let value): query.append((name, value))
            case .header(let name, let value): headers.add(name: name, value: value)
            default: throw UsageError("brick ws takes headers (Name:value) and query fields (name==value); the messages are standard input's lines, not \(text)")
            }
        }
        guard parsing.json == nil, !parsing.form, download == nil, methodOption == nil else {
            throw UsageError("brick ws opens a WebSocket: --json, --form, --download and a method do not apply (the messages are standard input's lines)")
        }
        if let credentials = parsing.credentials { try authorize(credentials, type: parsing.authType, password: password) }
    }
}
