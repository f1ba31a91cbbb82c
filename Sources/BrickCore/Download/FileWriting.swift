package import FoundationEssentials
import Glibc

/// Writes all of `data` to `descriptor` (at `offset` with `pwrite`, or at the file position with `write`),
/// retrying short and interrupted writes. Returns `errno` on failure, `nil` when everything was written.
func writeFully(_ descriptor: Int32, _ data: Data, at offset: Int64? = nil) -> Int32? {
    data.withUnsafeBytes { bytes in
        var done = 0
        while done < bytes.count {
            let start = bytes.baseAddress.map { $0 + done }
            let written = if let offset {
                pwrite(descriptor, start, bytes.count - done, off_t(offset) + off_t(done))
            } else {
                write(descriptor, start, bytes.count - done)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += written
        }
        return nil
    }
}

/// Writes `data` to `path` through a uniquely named temporary file beside it and a rename, so that a
/// reader (or a crash) sees the old file or the new one, never half of one. The file is readable by its
/// owner only (it may hold URLs with tokens, cookies and private bodies), and is created new (`O_EXCL`,
/// `O_NOFOLLOW`): never written through a link. Returns `errno` on failure.
package func writeAtomically(_ data: Data, to path: String) -> Int32? {
    let temporary = path + ".\(UInt64.random(in: 0...UInt64.max)).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return errno }
    let written = writeFully(descriptor, data)
    let closed: Int32? = close(descriptor) == 0 ? nil : errno
    if let failure = written ?? closed {
        unlink(temporary)
        return failure
    }
    guard rename(temporary, path) == 0 else {
        let failure = errno
        unlink(temporary)
        return failure
    }
    return nil
}
