public import FoundationEssentials

/// One step of a streamed transfer: the head first, then body chunks as they arrive, then the end;
/// progress reports of the upload and the download come in between.
///
/// Progress reports are coalesced: a consumer that falls behind finds only the latest one of each direction
/// between two other events, so they never hold memory. The last ones before ``end(_:)`` carry the final counts.
public enum TransportEvent: Sendable {
    /// The final response head; comes once, before any body chunk.
    case head(ResponseHead)
    /// A chunk of body, decompressed, in arrival order.
    case body(Data)
    /// Request body bytes sent so far (only for requests with a body).
    case uploadProgress(TransferProgress)
    /// Response body bytes received so far, against `Content-Length` when the response has one.
    case downloadProgress(TransferProgress)
    /// The transfer ended successfully; nothing follows.
    case end(TransferMetrics)
}
