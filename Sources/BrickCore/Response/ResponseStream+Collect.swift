extension ResponseStream {
    /// Runs the stream to its end, appending every body chunk to `store`; returns the head.
    /// - Throws: the stream's ``BrickError``, or the store's error.
    public func collect(into store: some BodyStore) async throws -> ResponseHead {
        var head = ResponseHead(status: 0)
        for try await event in self {
            switch event {
            case .head(let received): head = received
            case .body(let chunk): try store.append(chunk)
            default: continue
            }
        }
        return head
    }
}
