public import FoundationEssentials

/// What a finished download produced: where the file is and how it got there.
public struct DownloadResult: Sendable {
    /// The downloaded file, at the destination asked for.
    public let fileURL: URL
    /// The head of the last response (`206` for a resumed body).
    public let head: ResponseHead
    /// The file's length.
    public let length: Int64
    /// Where this call started: the bytes a previous, interrupted download had left (0 for a fresh one).
    public let resumedFrom: Int64
    /// Whether bytes kept from before were thrown away because the resource had changed (or the server
    /// would not send a range), so the file was fetched again from its first byte.
    public let restarted: Bool
    /// Every attempt, oldest first, with why each was repeated.
    public let attempts: [AttemptRecord]
}

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
    ///   - progress: Told after each chunk written, with bytes on disk against the complete length.
    /// - Throws: ``BrickError``: transport and retry failures (the partial file is kept for a resume),
    ///   `.validation` for a rejected status, `.file` when the file cannot be written or moved.
    public nonisolated(nonsending) func download(
        to destination: URL, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(BrickError) -> DownloadResult {
        try await session.download(makePlan(serializer: ResponseSerializer { $0.body }), to: destination.path, progress: progress)
    }
}
