import BrickSystem
import BrickTransport
import FoundationEssentials

/// One attempt as the recording transport saw it: the request, and the response's head and body (or the
/// error that ended it), with its timing. It becomes one HAR entry.
struct Exchange: Sendable {
    let request: TransportRequest
    /// The request's body as sent, or why it is not in the cassette.
    let requestBody: Result<Data, Omission>
    /// The wall-clock time the attempt started, and the monotonic one, which orders the entries.
    let started: Date
    let startedNanoseconds: UInt64
    var head: ResponseHead?
    var body = Data()
    /// The response body's size once it passed the cassette's limit (the body is then left out); 0 while kept.
    var bodyOverLimit = 0
    var contentDecoded = false
    var metrics = TransferMetrics()
    var error: TransportError?

    /// Why a body is not in the cassette.
    struct Omission: Error, Sendable {
        let reason: String
    }

    init(request: TransportRequest, bodyLimit: Int) {
        self.request = request
        started = Date()
        startedNanoseconds = monotonicNanoseconds()
        requestBody = Self.body(of: request.body, limit: bodyLimit)
    }

    /// Appends a piece of the response's body, up to `limit` bytes in all.
    mutating func append(_ piece: Data, limit: Int) {
        guard bodyOverLimit == 0, body.count + piece.count <= limit else {
            bodyOverLimit += piece.count + body.count
            body = Data()
            return
        }
        body.append(piece)
    }

    /// The request's body: its bytes, the file it names read (up to `limit`), or left out (a stream, which
    /// can be read only once, by the transfer).
    private static func body(of body: RequestBody?, limit: Int) -> Result<Data, Omission> {
        guard let body else { return .success(Data()) }
        var bytes = Data()
        for part in body.parts {
            switch part {
            case .data(let data): bytes.append(data)
            case .file(let path):
                guard case .success(let read) = FileDescriptor.readWhole(path, limit: limit) else {
                    return .failure(Omission(reason: "the body's file could not be read, or is over the cassette's limit"))
                }
                bytes.append(contentsOf: read)
            case .stream: return .failure(Omission(reason: "a streamed body is not recorded"))
            }
            if bytes.count > limit { return .failure(Omission(reason: "a body of over \(limit) bytes is not recorded")) }
        }
        return .success(bytes)
    }
}
