import BrickSystem
import BrickTransport

/// Keeps two downloads off one partial file: a claim on the file (device and inode, whatever its path's
/// spelling) within this process, and a POSIX record lock (`F_SETLK`) against other processes.
///
/// Not `flock`: a `flock` belongs to the open file description, which a process spawned by another thread
/// shares until it execs, so a download could find the lock of a download that had already ended still held
/// for a moment. A record lock belongs to the process and is never inherited; since it does not exclude
/// the process's own threads, the claims do that.
struct DestinationLock: Hashable, Sendable {
    private let device: UInt64
    private let inode: UInt64
    private static let claimed = Locked<Set<DestinationLock>>([])

    /// Claims the open file `descriptor` and locks it.
    ///
    /// - Returns: the claim, or the reason it was refused: `EWOULDBLOCK` when another download of this
    ///   process holds the file, `fstat`'s or `fcntl`'s error otherwise (`EAGAIN`/`EACCES`: another process).
    static func acquire(_ file: FileDescriptor) -> Result<DestinationLock, SystemError> {
        let status: FileStatus
        switch file.status() {
        case .success(let found): status = found
        case .failure(let error): return .failure(error)
        }
        let claim = DestinationLock(device: status.device, inode: status.inode)
        guard claimed.withLock({ $0.insert(claim).inserted }) else { return .failure(.wouldBlock) }
        if let refusal = file.lockRecordsNow() {
            claim.release()
            return .failure(refusal)
        }
        return .success(claim)
    }

    /// Gives up the claim; the record lock goes when the file's descriptor is closed.
    func release() {
        _ = Self.claimed.withLock { $0.remove(self) }
    }
}
