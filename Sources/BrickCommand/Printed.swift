import BrickRequest
import BrickTransport
import FoundationEssentials

/// The parts of an exchange `--print` names, as they go to standard output. Heads are shown as they were
/// sent and came (the user asked for them: `--verbose` is the log with secrets redacted), every field made
/// safe for a terminal (``TerminalText``); a body goes out byte for byte, except that JSON is laid out when
/// asked and a binary body is not written to a terminal.
struct Printed {
    let palette: Palette
    let terminal: Bool
    /// Whether JSON bodies are laid out (``JSONLayout``).
    let pretty: Bool

    func requestHead(_ request: TransportRequest) -> String {
        var lines = [palette.paint("\(request.method) \(TerminalText.visible(request.url))", .requestLine)]
        lines += request.headers.map { field(name: $0.name, value: $0.value) }
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// The request's body: its bytes in memory, and a line for each file or stream part.
    func requestBody(_ request: TransportRequest) -> Data {
        guard let body = request.body else { return Data() }
        var bytes = Data()
        for part in body.parts {
            switch part {
            case .data(let data): bytes += data
            case .file(let path): bytes += Data(palette.paint("(the file \(TerminalText.visible(path)))", .note).utf8)
            case .stream: bytes += Data(palette.paint("(a stream)", .note).utf8)
            }
        }
        let contentType = request.headers["Content-Type"]
        return self.body(bytes, contentType: contentType) + Data("\n\n".utf8)
    }

    func responseHead(_ head: ResponseHead) -> String {
        var lines = [palette.paint(HeadLines.statusLine(head), .status(head.status))]
        lines += head.headers.map { field(name: $0.name, value: $0.value) }
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// A body as it is written: JSON laid out when pretty; on a terminal, a body with a NUL byte (an image,
    /// an archive) replaced by a line saying what it is, since its bytes would only garble the screen.
    func body(_ data: Data, contentType: String?) -> Data {
        if terminal, data.contains(0) {
            let note = "(\(ByteCount.text(Int64(data.count))) of binary data, not shown on a terminal: pipe it or use --download FILE)"
            return Data((palette.paint(note, .note) + "\n").utf8)
        }
        let json = contentType?.lowercased().contains("json") ?? false
        return (json && pretty ? JSONLayout.indented(data, palette: palette) : nil) ?? data
    }

    private func field(name: String, value: String) -> String {
        palette.paint(TerminalText.visible(name), .fieldName) + ": " + TerminalText.visible(value)
    }
}
