public import BrickCore

/// A request that may be delivered later: ``enqueue()`` writes it to ``deliveryQueue`` (on disk), which sends
/// it in order when its host is reachable, in this process or the next one that opens the queue.
/// Sets: `enqueue()`, which queues the request as the bricks build it, labelled with the class's name.
///
/// ```swift
/// final class ReportReading: Component, POSTRequestType, JSONBodyType, DeferrableRequestType {
///     var URLString: String { "https://meters.example.com/readings" }
///     var deliveryQueue: DeliveryQueue { .readings }   // a `static let` of yours
///     let jsonBody: Reading
/// }
/// try ReportReading(jsonBody: reading).enqueue()
/// ```
public protocol DeferrableRequestType: RequestType {
    /// The queue it goes to. No default.
    var deliveryQueue: DeliveryQueue { get }
}

extension DeferrableRequestType {
    /// Writes the request to ``deliveryQueue`` and returns once it is on disk.
    /// - Throws: ``QueueError``: the request could not be built or stored.
    @discardableResult
    public func enqueue() throws(QueueError) -> QueuedRequest {
        let request: TransportRequest
        do { request = try makeTransportRequest() } catch { throw .request(error) }
        return try deliveryQueue.enqueue(request, label: String(describing: Self.self))
    }
}
