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
