import BrickSystem
import BrickTransport
import FoundationEssentials

extension HAR.File {
    /// Reads the HAR file at `path` (at most `limit` bytes) and checks every entry's bodies; `nil` when no
    /// file is there.
    static func read(_ path: String, limit: Int) throws(CassetteError) -> HAR.File? {
        let bytes: [UInt8]
        switch FileDescriptor.readWhole(path, limit: limit) {
        case .success(let read): bytes = read
        case .failure(.noSuchFile): return nil
        case .failure(.tooLarge):
            throw CassetteError(.tooLarge, path: path, message: "larger than the \(limit) bytes a cassette may hold")
        case .failure(let error): throw CassetteError(.unreadable, path: path, message: error.description)
        }
        let file = try decode(Data(bytes), path: path)
        for (index, entry) in file.log.entries.enumerated() {
            guard entry.error != nil || (100...999).contains(entry.response.status) else {
                throw CassetteError(.invalidField, path: path, entry: index, field: "response.status", message: "\(entry.response.status) is not a status")
            }
            // What replay hands the session as a server's head: names that are tokens, values without control bytes.
            for (position, field) in entry.response.headers.enumerated() where !field.isWellFormed {
                throw CassetteError(.invalidField, path: path, entry: index, field: "response.headers[\(position)]",
                                    message: "\(field.name.debugDescription) is not a field a server could send")
            }
            do {
                _ = try entry.responseBody()
                _ = try entry.requestBody()
            } catch let problem {
                throw CassetteError(.invalidField, path: path, entry: index, field: problem.field, message: problem.message)
            }
        }
        return file
    }

    /// `data` as a HAR file, or the error naming the entry and field that made it fail.
    static func decode(_ data: Data, path: String) throws(CassetteError) -> HAR.File {
        do {
            return try JSONDecoder().decode(HAR.File.self, from: data)
        } catch let error as DecodingError {
            throw CassetteError(decoding: error, path: path)
        } catch {
            throw CassetteError(.notJSON, path: path, message: "\(error)")
        }
    }
}

extension CassetteError {
    /// The decoder's error as the cassette's: the entry and field it names, and what was wrong.
    init(decoding error: DecodingError, path: String) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(.missingField, path: path, at: context.codingPath + [key], message: "missing")
        case .valueNotFound(let type, let context):
            self.init(.missingField, path: path, at: context.codingPath, message: "null where \(type) belongs")
        case .typeMismatch(let type, let context):
            self.init(.invalidField, path: path, at: context.codingPath, message: "not a \(type)")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            self.init(.notJSON, path: path, message: "not JSON (\(context.debugDescription))")
        case .dataCorrupted(let context):
            self.init(.invalidField, path: path, at: context.codingPath, message: context.debugDescription)
        @unknown default:
            self.init(.notJSON, path: path, message: "\(error)")
        }
    }

    /// An error at `codingPath`: `log.entries[3].response.status` becomes entry 3, field `response.status`.
    private init(_ kind: Kind, path: String, at codingPath: [any CodingKey], message: String) {
        var components = codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        var entry: Int?
        if components.starts(with: ["log", "entries"]), codingPath.count > 2, let index = codingPath[2].intValue {
            entry = index
            components.removeFirst(3)
        }
        let field = components.reduce(into: "") { field, part in
            field += part.hasPrefix("[") || field.isEmpty ? part : "." + part
        }
        self.init(kind, path: path, entry: entry, field: field.isEmpty ? nil : field, message: message)
    }
}

/// What is wrong with one body of an entry.
struct BodyProblem: Error {
    let field: String
    let message: String
}

extension HAR.Entry {
    /// The response's body as the client got it (decoded from its content codings), from `content.text`.
    /// - Throws: ``BodyProblem`` when the base64 does not decode, the size disagrees, or the body was left out.
    func responseBody() throws(BodyProblem) -> Data {
        let content = response.content
        guard let text = content.text else {
            guard content.size <= 0 else {
                throw BodyProblem(field: "response.content.text", message: content.comment ?? "the body (\(content.size) bytes) was not recorded")
            }
            return Data()
        }
        let body = try Self.bytes(of: text, encoding: content.encoding, field: "response.content")
        // The size is the decoded body's (HAR 1.2); some tools write the bytes on the wire and the codings' saving.
        let (withCompression, overflow) = content.size.addingReportingOverflow(content.compression ?? 0)
        guard body.count == content.size || (!overflow && body.count == withCompression) else {
            throw BodyProblem(field: "response.content.size", message: "says \(content.size) bytes; the text holds \(body.count)")
        }
        return body
    }

    /// The request's body, from `postData` (empty when there is none).
    func requestBody() throws(BodyProblem) -> Data {
        guard let post = request.postData, let text = post.text else { return Data() }
        return try Self.bytes(of: text, encoding: post.encoding, field: "request.postData")
    }

    private static func bytes(of text: String, encoding: String?, field: String) throws(BodyProblem) -> Data {
        switch encoding {
        case nil, "": return Data(text.utf8)
        case "base64":
            guard let bytes = Data(base64Encoded: text) else { throw BodyProblem(field: field + ".text", message: "base64 that does not decode") }
            return bytes
        case let other?: throw BodyProblem(field: field + ".encoding", message: "\(other.debugDescription) is not an encoding a cassette reads (base64)")
        }
    }
}

extension HAR.Pair {
    /// Whether this could be a header field on the wire: an RFC 9110 token for a name, and a value of visible
    /// characters, spaces and tabs.
    var isWellFormed: Bool {
        !name.isEmpty && name.utf8.allSatisfy(HTTPHeaders.isTokenByte)
            && !value.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
    }
}
