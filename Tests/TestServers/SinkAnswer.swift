public import Foundation

/// What `upload_sink.py` answers about a body it received.
public struct SinkAnswer: Decodable, Sendable {
    public struct Part: Decodable, Sendable {
        public let name: String?
        public let filename: String?
        public let contentType: String?
        public let length: Int
        public let sha256: String
        public let base64: String?
        /// The part's bytes, when it was small enough to be echoed.
        public var bytes: Data? { base64.flatMap { Data(base64Encoded: $0) } }
    }

    public let method: String
    public let length: Int
    public let sha256: String
    public let base64: String?
    public let chunked: Bool
    public let contentLength: String?
    public let contentType: String
    public let parts: [Part]?
    public let complete: Bool

    /// The body's bytes, when it was small enough to be echoed.
    public var bytes: Data? { base64.flatMap { Data(base64Encoded: $0) } }

    /// Decodes the sink's JSON answer.
    public init(json: Data) throws { self = try JSONDecoder().decode(SinkAnswer.self, from: json) }
}

/// The SHA-256 of a file, in hex, from coreutils' `sha256sum`.
public func sha256(ofFile path: String) throws(TestServerError) -> String {
    let output = "/tmp/brick-sha256-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).txt"
    try ChildProcess.run(["/usr/bin/sha256sum", path], logPath: output)
    defer { unlink(output) }
    return String(Paths.read(output).prefix(64))
}

/// A new file in /tmp (the caller unlinks it) of `size` pseudo-random bytes: a 1 MiB xorshift block per
/// `seed`, written again and again with each copy's first 8 bytes replaced by its number, so that no two
/// blocks are alike (a reordered or repeated block changes the hash) and big files are quick to make.
public func makeTestFile(size: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) throws(TestServerError) -> String {
    let path = "/tmp/brick-upload-\(getpid())-\(seed)-\(size)-\(UInt64.random(in: 0...UInt64.max)).bin"
    guard let file = fopen(path, "w") else { throw TestServerError("cannot create \(path)") }
    defer { fclose(file) }
    var state = seed | 1
    var piece = [UInt64](repeating: 0, count: 1 << 17)
    for index in piece.indices {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        piece[index] = state
    }
    var written = 0
    var block: UInt64 = 0
    while written < size {
        piece[0] = block ^ seed
        block += 1
        let count = min(size - written, piece.count * 8)
        guard piece.withUnsafeBytes({ fwrite($0.baseAddress, 1, count, file) }) == count else {
            throw TestServerError("cannot write \(path)")
        }
        written += count
    }
    return path
}
