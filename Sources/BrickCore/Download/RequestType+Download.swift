public import FoundationEssentials

extension RequestType {
    /// Downloads the response body to the file at `destination`, in bounded memory.
    ///
    /// The body goes to `<destination>.part` as it arrives and moves to `destination` (replacing a file
    /// there) only once complete. When the response carries a strong `ETag` or a `Last-Modified` date, a
    /// record beside the partial file lets an interrupted download resume with `Range` and `If-Range`:
    /// after a failure its retry rules allow, in the same call, or in a later call, even in another process.
    /// A resource that changed meanwhile is fetched again from its first byte. Bodies are stored as sent
    /// (no automatic decompression), so that ranges line up.
    ///
    /// - Parameters:
    ///   - destination: Where the file goes; its directory must exist.
    ///   - fileMode: The finished file's permission bits (`0o600` to keep it private). Default: what the
    ///     process's umask leaves of `0o666`, as curl and HTTPie do. The partial file is always `0o600`.
    ///   - progress: Told where the file stands (bytes on disk against the complete length): at most every
    ///     100 ms or each whole percent, and always once it is complete.
    /// - Throws: ``BrickError``: transport and retry failures (the partial file is kept for a resume),
    ///   `.validation` for a rejected status, `.file` when the file cannot be written or moved.
    public nonisolated(nonsending) func download(
        to destination: URL, fileMode: UInt16? = nil, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(BrickError) -> DownloadResult {
        try await session.download(makePlan(), to: destination.path, fileMode: fileMode, progress: progress)
    }
}
