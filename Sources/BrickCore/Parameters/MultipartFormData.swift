import FoundationEssentials

/// A `multipart/form-data` body (RFC 7578) built from parameters: text fields first, then files.
///
/// Only the part headers and text values are held in memory; file parts are streamed from disk or from
/// their stream while the request is sent.
public struct MultipartFormData: Sendable {
    /// The boundary between parts.
    public let boundary: String

    /// A body with `boundary`; by default a random one that cannot occur by chance in the content.
    public init(boundary: String = MultipartFormData.randomBoundary()) {
        self.boundary = boundary
    }

    /// The `Content-Type` value announcing this body.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The body for `parameters`.
    ///
    /// - Throws: ``RequestEncodingError/notAFileURL(_:)`` for a file parameter whose URL is not a file URL.
    public func encode(_ parameters: ParameterBuilder) throws(RequestEncodingError) -> RequestBody {
        var body = RequestBody([])
        for parameter in parameters.textParameters {
            guard let value = parameter.value else { continue }
            body.append(.data(Data((partHeader(name: parameter.name) + "\r\n" + value + "\r\n").utf8)))
        }
        for file in parameters.fileParameters {
            let header = partHeader(name: file.name, fileName: file.fileName) + "Content-Type: \(file.mimeType)\r\n\r\n"
            body.append(.data(Data(header.utf8)))
            switch file.source {
            case .data(let bytes): body.append(.data(bytes))
            case .file(let url):
                guard url.isFileURL else { throw .notAFileURL(url.absoluteString) }
                body.append(.file(path: url.path(percentEncoded: false)))
            case .stream(let stream): body.append(.stream(stream))
            }
            body.append(.data(Data("\r\n".utf8)))
        }
        body.append(.data(Data("--\(boundary)--\r\n".utf8)))
        return body
    }

    private func partHeader(name: String, fileName: String? = nil) -> String {
        var header = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escape(name))\""
        if let fileName { header += "; filename=\"\(Self.escape(fileName))\"" }
        return header + "\r\n"
    }

    /// Escapes a name for a quoted `Content-Disposition` parameter the way browsers do (WHATWG):
    /// `"` as `%22`, CR as `%0D`, LF as `%0A`; other characters, Unicode included, are sent as UTF-8.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "\"": escaped += "%22"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A boundary of 32 random hex digits after a fixed prefix.
    public static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }
        return "BrickBoundary-" + digits.map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined()
    }
}
