import BrickSystem
package import FoundationEssentials

extension FileDescriptor {
    /// Writes all of `data` (at `offset`, or at the file position), retrying short and interrupted writes.
    func write(_ data: Data, at offset: Int64? = nil) -> SystemError? {
        data.withUnsafeBytes { write($0, at: offset) }
    }
}

/// Writes `data` to `path` through a uniquely named temporary file beside it and a rename, so that a
/// reader (or a crash) sees the old file or the new one, never half of one. The file is readable by its
/// owner only (it may hold URLs with tokens, cookies and private bodies), and is created new (`O_EXCL`,
/// `O_NOFOLLOW`): never written through a link. Returns `errno` on failure.
package func writeAtomically(_ data: Data, to path: String) -> Int32? {
    let temporary = path + ".\(UInt64.random(in: 0...UInt64.max)).tmp"
    let file: FileDescriptor
    switch FileDescriptor.open(temporary, [.write, .create, .exclusive, .noFollow]) {
    case .success(let opened): file = opened
    case .failure(let error): return error.code
    }
    let written = file.write(data)
    let closed = file.close()
    if let failure = written ?? closed {
        Paths.remove(temporary)
        return failure.code
    }
    if let failure = Paths.rename(temporary, to: path) {
        Paths.remove(temporary)
        return failure.code
    }
    return nil
}
