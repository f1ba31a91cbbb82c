import BrickSystem
import FoundationEssentials

/// The file a download writes: `<destination>.part`, with its ``ResumeRecord`` in `<destination>.part.json`.
/// Bytes are written as they arrive; the file moves to the destination only when the body is complete.
/// A ``DestinationLock`` keeps two downloads off one destination. Confined to the downloading task.
final class PartialFile {
    let destination: String
    let url: String
    var partPath: String { destination + ".part" }
    var recordPath: String { destination + ".part.json" }
    /// Bytes on disk: where the next byte goes, and the `Range` start of a resume.
    private(set) var offset: Int64 = 0
    /// The record of the bytes on disk; `nil` when they cannot be resumed (no validator yet).
    private(set) var record: ResumeRecord?
    private var file: FileDescriptor?
    private var lock: DestinationLock?

    /// Opens the partial file of `destination`, keeping bytes a previous download of `url` left with a
    /// record; anything else there is discarded.
    init(destination: String, url: String) throws(FileError) {
        self.destination = destination
        self.url = url
        let previous = ResumeRecord.read(from: recordPath).flatMap { $0.url == url ? $0 : nil }
        // Owner-only (it may hold a private body), never through a symbolic link someone planted, and
        // only a regular file: a download must not write into whatever the path points at.
        let file: FileDescriptor
        switch FileDescriptor.open(partPath, [.write, .create, .noFollow]) {
        case .success(let opened): file = opened
        case .failure(let error): throw FileError(.open, path: partPath, osErrno: error.code)
        }
        guard case .success(let status) = file.status(), status.isRegularFile else {
            file.close()
            throw FileError(.open, path: partPath, osErrno: SystemError.invalid.code)
        }
        switch DestinationLock.acquire(file) {
        case .success(let claim): lock = claim
        case .failure(let refusal):
            file.close()
            throw FileError(.lock, path: partPath, osErrno: refusal.code)
        }
        self.file = file
        let size = (try? file.seekToEnd().get()) ?? 0
        if let previous, size > 0, size <= (previous.length ?? .max) {
            record = previous
            offset = size
        } else {
            try truncate()
        }
    }

    deinit { closeAndUnlock() }

    /// Closes the file (which drops the record lock), then gives up the claim.
    private func closeAndUnlock() {
        file?.close()
        file = nil
        lock?.release()
        lock = nil
    }

    /// The `Range` and `If-Range` fields that resume from ``offset``, when there is something to resume.
    var resumeHeaders: HTTPHeaders? {
        guard offset > 0, let record else { return nil }
        return ["Range": "bytes=\(offset)-", "If-Range": record.validator]
    }

    /// Empties the file and forgets its record: the next byte is the resource's first.
    func truncate() throws(FileError) {
        Paths.remove(recordPath)
        record = nil
        offset = 0
        if let failure = file?.truncate() { throw FileError(.write, path: partPath, osErrno: failure.code) }
    }

    /// Records how to resume what follows: the validator of `head` and the complete length.
    func remember(_ head: ResponseHead, length: Int64?) throws(FileError) {
        guard let validator = ResumeRecord.validator(of: head) else {
            Paths.remove(recordPath)
            record = nil
            return
        }
        let next = ResumeRecord(url: url, validator: validator, length: length)
        guard next != record else { return }
        try next.write(to: recordPath)
        record = next
    }

    /// Appends `chunk` at ``offset``.
    func write(_ chunk: Data) throws(FileError) {
        guard let file else { throw FileError(.write, path: partPath, osErrno: SystemError.invalid.code) }
        if let failure = file.write(chunk, at: offset) { throw FileError(.write, path: partPath, osErrno: failure.code) }
        offset += Int64(chunk.count)
    }

    /// After a failed download: removes the partial file and its record when it holds no byte (nothing to
    /// resume, so nothing is left behind), while the file is still locked as this download's.
    func discardIfEmpty() {
        guard offset == 0, file != nil else { return }
        Paths.remove(partPath)
        Paths.remove(recordPath)
        closeAndUnlock()
    }

    /// Gives the complete file its mode, moves it to the destination (replacing what is there) and removes
    /// the record. The partial file stays its owner's alone while it fills; the finished one gets `mode`,
    /// or, by default, what the process's umask leaves of 0666, as curl and HTTPie give a file they make
    /// (0600 still when the umask cannot be read).
    func complete(mode: UInt16?) throws(FileError) {
        let permissions = mode.map { UInt32($0) & 0o7777 } ?? Paths.fileCreationMask().map { 0o666 & ~$0 } ?? 0o600
        if let file, let failure = file.setPermissions(permissions) { throw FileError(.move, path: partPath, osErrno: failure.code) }
        if let failure = Paths.rename(partPath, to: destination) { throw FileError(.move, path: destination, osErrno: failure.code) }
        Paths.remove(recordPath)
        closeAndUnlock()
    }
}
