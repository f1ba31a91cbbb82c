public import FoundationEssentials

/// One step of a streamed transfer: the head first, then body chunks as they arrive, then the end.
public enum TransportEvent: Sendable {
    /// The final response head; comes once, before any body chunk.
    case head(ResponseHead)
    /// A chunk of body, decompressed, in arrival order.
    case body(Data)
    /// The transfer ended successfully; nothing follows.
    case end(TransferMetrics)
}
