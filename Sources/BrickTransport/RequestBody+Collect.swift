public import FoundationEssentials

extension RequestBody {
    /// Every byte of the body, read into memory: files are read whole and streams are drained (so a body
    /// holding a stream cannot be sent afterwards). Meant for inspecting requests in tests and logs.
    ///
    /// - Throws: ``TransportError`` of kind ``TransportError/Kind/uploadFailed`` when a file cannot be read
    ///   or a stream throws.
    public func collected() async throws(TransportError) -> Data {
        var bytes = Data()
        for part in parts {
            switch part {
            case .data(let data):
                bytes.append(data)
            case .file(let path):
                do { bytes.append(try Data(contentsOf: URL(filePath: path))) } catch {
                    throw TransportError(.uploadFailed, message: "cannot read \(path): \(error)")
                }
            case .stream(let stream):
                do { try await stream.forEachChunk { bytes.append($0) } } catch {
                    throw TransportError(.uploadFailed, message: "the body stream failed: \(error)")
                }
            }
        }
        return bytes
    }
}
