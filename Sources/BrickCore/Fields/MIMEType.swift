/// Media types guessed from file name extensions, for ``FileParameter``.
public enum MIMEType {
    /// The media type for `fileName`'s extension, or `application/octet-stream` when it is not known.
    public static func guess(forFileName fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return octetStream }
        return byExtension[fileName[fileName.index(after: dot)...].lowercased()] ?? octetStream
    }

    /// The type for bytes of no known kind.
    public static let octetStream = "application/octet-stream"

    private static let byExtension: [String: String] = [
        "txt": "text/plain", "html": "text/html", "htm": "text/html", "css": "text/css", "csv": "text/csv",
        "md": "text/markdown", "xml": "application/xml", "json": "application/json", "pdf": "application/pdf",
        "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar",
        "js": "text/javascript", "wasm": "application/wasm", "bin": octetStream,
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "svg": "image/svg+xml", "heic": "image/heic", "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg",
        "mp4": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
    ]
}
