public import FoundationEssentials

/// A file sent as one part of a `multipart/form-data` body: from bytes in memory, from a file on disk
/// (streamed while sending, never loaded whole), or from an async sequence of chunks.
///
/// ```swift
/// ParameterBuilder {
///     TextParameter("holiday", name: "album")
///     FileParameter(fileURL: photoURL, name: "photo")
/// }
/// ```
public struct FileParameter: Sendable {
    /// Where the file's bytes come from.
    public enum Source: Sendable {
        /// Bytes in memory.
        case data(Data)
        /// A file on disk, read while the request is sent.
        case file(URL)
        /// Chunks pulled while the request is sent; it can be sent once.
        case stream(BodyStream)
    }

    /// The form field's name.
    public let name: String
    /// The file name the server sees (`filename=` in the part's header).
    public let fileName: String
    /// The part's `Content-Type`.
    public let mimeType: String
    /// The bytes.
    public let source: Source

    /// A file from bytes in memory.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - name: The form field's name.
    ///   - fileName: The file name the server is told.
    ///   - mimeType: Default is guessed from `fileName`'s extension, else `application/octet-stream`.
    public init(data: Data, name: String, fileName: String, mimeType: String? = nil) {
        self.init(source: .data(data), name: name, fileName: fileName, mimeType: mimeType)
    }

    /// A file on disk, streamed while sending. It must exist when the request is sent; otherwise the
    /// request fails with ``BrickError/requestEncoding(_:)`` (not a file URL) or an `uploadFailed` transport error.
    ///
    /// - Parameters:
    ///   - fileURL: Where the file is (a `file:` URL).
    ///   - name: The form field's name.
    ///   - fileName: Default is the URL's last path component.
    ///   - mimeType: Default is guessed from the file name's extension.
    public init(fileURL: URL, name: String, fileName: String? = nil, mimeType: String? = nil) {
        self.init(source: .file(fileURL), name: name, fileName: fileName ?? fileURL.lastPathComponent, mimeType: mimeType)
    }

    /// A file whose bytes come from `stream`; with a known length the body keeps a `Content-Length`.
    public init(stream: BodyStream, name: String, fileName: String, mimeType: String? = nil) {
        self.init(source: .stream(stream), name: name, fileName: fileName, mimeType: mimeType)
    }

    /// A file from any source.
    public init(source: Source, name: String, fileName: String, mimeType: String? = nil) {
        self.source = source
        self.name = name
        self.fileName = fileName
        self.mimeType = mimeType ?? MIMEType.guess(forFileName: fileName)
    }
}
