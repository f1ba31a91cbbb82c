extension Session {
    /// Sends `request` and collects its whole response.
    ///
    /// - Parameter owner: The component the request belongs to, so that ``cancel(_:)`` finds it.
    /// - Throws: ``BrickError/transport(_:)``.
    public func send(_ request: TransportRequest, owner: Component? = nil) async throws(BrickError) -> TransportResponse {
        try await send(request, ownerID: owner.map(ObjectIdentifier.init))
    }

    func send(_ request: TransportRequest, ownerID: ObjectIdentifier?) async throws(BrickError) -> TransportResponse {
        let transfer = transport.makeTransfer(for: request)
        let id = registry.add(transfer, owner: ownerID)
        defer { registry.remove(id) }
        do { return try await transfer.response() } catch { throw .transport(error) }
    }

    /// Sends `request`, collects its response and serializes it; never throws: the outcome is in the result.
    func dispatch<Value>(
        _ request: TransportRequest, serializer: ResponseSerializer<Value>, owner: ObjectIdentifier
    ) async -> DataResponse<Value> {
        let response: TransportResponse
        do { response = try await send(request, ownerID: owner) } catch {
            return DataResponse(request: request, response: nil, result: .failure(error))
        }
        do {
            return DataResponse(request: request, response: response, result: .success(try serializer.serialize(response)))
        } catch {
            return DataResponse(request: request, response: response, result: .failure(error))
        }
    }

    /// Sends `request` and returns its events as they arrive (head, body chunks, end), with back-pressure.
    public func stream(_ request: TransportRequest, owner: Component? = nil) -> ResponseStream {
        stream(request, ownerID: owner.map(ObjectIdentifier.init))
    }

    func stream(_ request: TransportRequest, ownerID: ObjectIdentifier?) -> ResponseStream {
        let transfer = transport.makeTransfer(for: request)
        let id = registry.add(transfer, owner: ownerID)
        return ResponseStream(events: transfer.events(), registration: Registration(registry: registry, id: id))
    }
}
