import BrickSystem
import BrickTransport
import CCurl
import FoundationEssentials

/// A request body as libcurl's read callback consumes it, on the engine thread: in-memory parts are copied
/// out, files are read with `pread` from descriptors opened when the transfer starts, and stream parts are
/// taken from a ``StreamFeed`` filled by a task of its own.
final class UploadSource {
    private enum Piece {
        case bytes(Data)
        case file(descriptor: FileDescriptor, length: Int64, path: String)
        case stream(StreamFeed, length: Int64?)
    }

    private var pieces: [Piece] = []
    private var index = 0
    private var offset: Int64 = 0
    private var feeders: [Task<Void, Never>] = []
    /// The total length, or `nil` when a stream part has none (the body is then sent chunked).
    private(set) var length: Int64? = 0
    /// Why the body could not be read, once the read callback has aborted the transfer.
    private(set) var failure: TransportError?

    /// Opens the body's files and starts pulling its streams.
    ///
    /// - Parameter wake: Called from a feeder task when a stream chunk arrives for a paused transfer.
    /// - Throws: ``TransportError/Kind/uploadFailed`` when a file cannot be opened.
    init(body: RequestBody, bufferSize: Int, wake: @escaping @Sendable () -> Void) throws(TransportError) {
        for part in body.parts {
            switch part {
            case .data(let bytes):
                pieces.append(.bytes(bytes))
                length = length.map { $0 + Int64(bytes.count) }
            case .file(let path):
                let (descriptor, size) = try Self.open(path)
                pieces.append(.file(descriptor: descriptor, length: size, path: path))
                length = length.map { $0 + size }
            case .stream(let stream):
                let feed = StreamFeed(limit: bufferSize, wake: wake)
                feeders.append(Task { await feed.pull(stream) })
                pieces.append(.stream(feed, length: stream.length))
                length = length.flatMap { total in stream.length.map { total + $0 } }
            }
        }
    }

    deinit {
        feeders.forEach { $0.cancel() }
        for case .stream(let feed, _) in pieces { feed.stop() }
        for case .file(let file, _, _) in pieces { file.close() }
    }

    /// Whether the body can be sent again from the start (no stream part).
    var isSeekable: Bool { !pieces.contains { if case .stream = $0 { true } else { false } } }

    /// Fills `buffer` with the next bytes; returns how many, 0 at the end, or libcurl's pause or abort code.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while index < pieces.count {
            let count: Int
            switch pieces[index] {
            case .bytes(let bytes):
                count = min(buffer.count, bytes.count - Int(offset))
                let start = bytes.startIndex + Int(offset)
                bytes.copyBytes(to: buffer, from: start..<(start + count))
            case .file(let file, let length, let path):
                let wanted = Int(min(Int64(buffer.count), length - offset))
                guard wanted > 0 else { count = 0; break }
                switch file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]), at: offset) {
                case .success(let got) where got > 0: count = got
                case .success: return abort("\(path) ended after \(offset) of \(length) bytes")
                case .failure(let error): return abort("\(path) failed after \(offset) of \(length) bytes: \(error)")
                }
            case .stream(let feed, let length):
                switch feed.take(into: buffer) {
                case .bytes(let got): count = got
                case .waiting: return Int(CURL_READFUNC_PAUSE)
                case .finished:
                    if let length, offset != length {
                        return abort("the body stream yielded \(offset) bytes, not the \(length) announced")
                    }
                    count = 0
                case .failed(let message): return abort("the body stream failed: \(message)")
                }
                if let length, offset + Int64(count) > length {
                    return abort("the body stream yielded more than the \(length) bytes announced")
                }
            }
            if count > 0 {
                offset += Int64(count)
                return count
            }
            index += 1
            offset = 0
        }
        return 0
    }

    /// Moves back to `position` from the start, for a redirect or an authentication round that resends
    /// the body; `false` when the body holds a stream.
    func seek(to position: Int64) -> Bool {
        guard isSeekable else { return false }
        var remaining = position
        for (at, piece) in pieces.enumerated() {
            let size: Int64
            switch piece {
            case .bytes(let bytes): size = Int64(bytes.count)
            case .file(_, let length, _): size = length
            case .stream: return false
            }
            if remaining <= size {
                index = at
                offset = remaining
                return true
            }
            remaining -= size
        }
        return false
    }

    private func abort(_ message: String) -> Int {
        failure = TransportError(.uploadFailed, message: message)
        return Int(CURL_READFUNC_ABORT)
    }

    private static func open(_ path: String) throws(TransportError) -> (FileDescriptor, Int64) {
        // Non-blocking: opening a FIFO for reading would otherwise wait for a writer, on the engine thread,
        // stalling every transfer. It is refused just below, like any file that is not regular.
        let file: FileDescriptor
        switch FileDescriptor.open(path, [.read, .nonBlocking]) {
        case .success(let opened): file = opened
        case .failure(let error): throw TransportError(.uploadFailed, osErrno: error.code, message: "cannot open \(path): \(error)")
        }
        guard case .success(let status) = file.status(), status.isRegularFile else {
            file.close()
            throw TransportError(.uploadFailed, message: "\(path) is not a regular file")
        }
        return (file, status.size)
    }
}
