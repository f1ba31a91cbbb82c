extension ResponseStream {
    /// Runs the stream to its end, appending every body chunk to `provider`; returns the head.
    /// - Throws: the stream's ``BrickError``, or the provider's error.
    public func collect(into provider: some DataCacheProvider) async throws -> ResponseHead {
        var head = ResponseHead(status: 0)
        for try await event in self {
            switch event {
            case .head(let received): head = received
            case .body(let chunk): try provider.append(chunk)
            default: continue
            }
        }
        return head
    }
}
