import BrickSystem
import FoundationEssentials

/// The file a download writes: `<destination>.part`, with its ``ResumeRecord`` in `<destination>.part.json`.
/// Bytes are written as they arrive; the file moves to the destination only when the body is complete.
/// A ``DestinationLock`` keeps two downloads off one destination. Used by one attempt at a time; what
/// changes is behind one lock (``state``), so that the call that holds it may be shared.
final class PartialFile: Sendable {
    let destination: String
    let url: String
    var partPath: String { destination + ".part" }
    var recordPath: String { destination + ".part.json" }

    private struct State {
        var offset: Int64 = 0
        var record: ResumeRecord?
        var file: FileDescriptor?
        var lock: DestinationLock?
    }

    private let state = Locked(State())
    /// Bytes on disk: where the next byte goes, and the `Range` start of a resume.
    var offset: Int64 { state.withLock { $0.offset } }
    /// The record of the bytes on disk; `nil` when they cannot be resumed (no validator yet).
    var record: ResumeRecord? { state.withLock { $0.record } }

    /// Opens the partial file of `destination`, keeping bytes a previous download of `url` left with a
    /// record; anything else there is discarded.
    init(destination: String, url: String) throws(FileError) {
        self.destination = destination
        self.url = url
        let previous = ResumeRecord.read(from: destination + ".part.json").flatMap { $0.url == url ? $0 : nil }
        // Owner-only (it may hold a private body), never through a symbolic link someone planted, and
        // only a regular file: a download must not write into whatever the path points at.
        let partPath = destination + ".part"
        let file: FileDescriptor
        switch FileDescriptor.open(partPath, [.write, .create, .noFollow]) {
        case .success(let opened): file = opened
        case .failure(let error): throw FileError(.open, path: partPath, osErrno: error.code)
        }
        guard case .success(let status) = file.status(), status.isRegularFile else {
            file.close()
            throw FileError(.open, path: partPath, osErrno: SystemError.invalid.code)
        }
        let claim: DestinationLock
        switch DestinationLock.acquire(file) {
        case .success(let made): claim = made
        case .failure(let refusal):
            file.close()
            throw FileError(.lock, path: partPath, osErrno: refusal.code)
        }
        let size = (try? file.seekToEnd().get()) ?? 0
        let resumes = previous.map { size > 0 && size <= ($0.length ?? .max) } ?? false
        state.withLock { state in
            state.file = file
            state.lock = claim
            if resumes {
                state.record = previous
                state.offset = size
            }
        }
        if !resumes { try truncate() }
    }

    deinit { state.withLock { Self.closeAndUnlock(&$0) } }

    /// Closes the file (which drops the record lock), then gives up the claim.
    private static func closeAndUnlock(_ state: inout State) {
        state.file?.close()
        state.file = nil
        state.lock?.release()
        state.lock = nil
    }

    /// The `Range` and `If-Range` fields that resume from ``offset``, when there is something to resume.
    var resumeHeaders: HTTPHeaders? {
        state.withLock { state in
            guard state.offset > 0, let record = state.record else { return nil }
            return ["Range": "bytes=\(state.offset)-", "If-Range": record.validator]
        }
    }

    /// Empties the file and forgets its record: the next byte is the resource's first.
    func truncate() throws(FileError) {
        Paths.remove(recordPath)
        let failure = state.withLock { state in
            state.record = nil
            state.offset = 0
            return state.file?.truncate()
        }
        if let failure { throw FileError(.write, path: partPath, osErrno: failure.code) }
    }

    /// Records how to resume what follows: the validator of `head` and the complete length.
    func remember(_ head: ResponseHead, length: Int64?) throws(FileError) {
        guard let validator = ResumeRecord.validator(of: head) else {
            Paths.remove(recordPath)
            state.withLock { $0.record = nil }
            return
        }
        let next = ResumeRecord(url: url, validator: validator, length: length, ranges: ResumeRecord.ranges(of: head))
        guard next != record else { return }
        try next.write(to: recordPath)
        state.withLock { $0.record = next }
    }

    /// Appends `chunk` at ``offset``.
    func write(_ chunk: Data) throws(FileError) {
        let failure: SystemError? = state.withLock { state in
            guard let file = state.file else { return SystemError.invalid }
            if let failure = file.write(chunk, at: state.offset) { return failure }
            state.offset += Int64(chunk.count)
            return nil
        }
        if let failure { throw FileError(.write, path: partPath, osErrno: failure.code) }
    }

    /// After a failed download: removes the partial file and its record when it holds no byte (nothing to
    /// resume, so nothing is left behind), while the file is still locked as this download's.
    func discardIfEmpty() {
        state.withLock { state in
            guard state.offset == 0, state.file != nil else { return }
            Paths.remove(partPath)
            Paths.remove(recordPath)
            Self.closeAndUnlock(&state)
        }
    }

    /// Gives the complete file its mode, moves it to the destination (replacing what is there) and removes
    /// the record. The partial file stays its owner's alone while it fills; the finished one gets `mode`,
    /// or, by default, what the process's umask leaves of 0666, as curl and HTTPie give a file they make
    /// (0600 still when the umask cannot be read).
    func complete(mode: UInt16?) throws(FileError) {
        let permissions = mode.map { UInt32($0) & 0o7777 } ?? Paths.fileCreationMask().map { 0o666 & ~$0 } ?? 0o600
        let failure: FileError? = state.withLock { state in
            if let file = state.file, let failure = file.setPermissions(permissions) { return FileError(.move, path: partPath, osErrno: failure.code) }
            if let failure = Paths.rename(partPath, to: destination) { return FileError(.move, path: destination, osErrno: failure.code) }
            Paths.remove(recordPath)
            Self.closeAndUnlock(&state)
            return nil
        }
        if let failure { throw failure }
    }
}
