import BrickTransport
import Glibc

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
    static func acquire(_ descriptor: Int32) -> Result<DestinationLock, LockRefusal> {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(LockRefusal(errno: errno)) }
        let claim = DestinationLock(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        guard claimed.withLock({ $0.insert(claim).inserted }) else { return .failure(LockRefusal(errno: EWOULDBLOCK)) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        guard fcntl(descriptor, F_SETLK, &lock) == 0 else {
            let refusal = LockRefusal(errno: errno)
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

/// Why a ``DestinationLock`` was refused.
struct LockRefusal: Error {
    let errno: Int32
}
