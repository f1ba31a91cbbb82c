public import FoundationEssentials

/// Where a streamed body is gathered while it arrives: hand one to
/// ``ResponseStream/collect(into:)`` and read the body from it at the end.
public protocol BodyStore: AnyObject, Sendable {
    /// Appends a chunk of body.
    /// - Throws: ``FileError`` (or the store's own error) when it cannot keep the chunk.
    func append(_ chunk: Data) throws
    /// Everything appended so far.
    func data() throws -> Data
    /// Forgets everything appended.
    func clear() throws
}
