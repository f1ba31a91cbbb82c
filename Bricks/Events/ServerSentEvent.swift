/// One event of a `text/event-stream` response (server-sent events, as the WHATWG EventSource rules read
/// them): what LLM and notification APIs stream.
public struct ServerSentEvent: Sendable, Equatable {
    /// The event's type: its `event:` field, or `message` when it had none.
    public var type: String
    /// Its `data:` lines, joined with line feeds.
    public var data: String
    /// The last event ID when it was dispatched: the latest `id:` field so far, this event's or an earlier
    /// one's (empty when none came). A reconnection sends it back as `Last-Event-ID`.
    public var id: String

    /// An event.
    public init(type: String = "message", data: String, id: String = "") {
        self.type = type
        self.data = data
        self.id = id
    }
}
