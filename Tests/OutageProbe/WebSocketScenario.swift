import BrickRequest
import BrickSystem
import Foundation
import TestServers

/// A WebSocket through an outage: connected and sending, the route goes down for 5 s; the connection is
/// found lost, a hundred messages wait in the outbox meanwhile; the route returns: one reconnect, the
/// resubscribe hook's message, then the hundred in order. The server's ledger says what arrived, the
/// client's reader what came back.
func webSocketScenario() async throws -> Report {
    var report = Report()
    let server = try WebSocketServer()
    defer { server.stop() }
    let session = Session()
    let socket = try await session.reconnectingWebSocket(
        server.url("/counted"), policy: ReconnectPolicy(outbox: .init(capacity: 200)),
        resubscribe: { try await $0.send(text: "subscribe") })
    let received = Locked<[String]>([])
    let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let reader = Task {
        defer { arrived.finish() }
        do {
            for try await case .text(let text) in socket.messages {
                received.withLock { $0.append(text) }
                arrived.yield()
            }
            return "ended"
        } catch { return "\(error)" }
    }
    let events = socket.events
    for index in 0..<10 { try await socket.send(text: "before-\(index)") }
    report.facts["echoes before"] = await echoes(of: 10, prefix: "before-", in: received, arrivals) ? "all" : "missing"

    try Network.goOffline()
    let lost = await bounded(seconds: 30) {
        var iterator = events.makeAsyncIterator()
        return await iterator.next()
    }
    report.facts["first event"] = lost.map { "\($0.map(describe) ?? "end")" } ?? "none within 30 s"
    for index in 0..<100 { try await socket.send(text: "m-\(index)") }
    report.add("waiting in outbox", Double(socket.waitingInOutbox))
    try await Task.sleep(for: .seconds(5))  // the outage's length, the scenario's subject (no one waits on it)
    _ = try Network.goOnline()
    let back = await bounded(seconds: 60) {
        var iterator = events.makeAsyncIterator()
        while let event = await iterator.next() { if case .reconnected = event { return describe(event) } }
        return "events ended"
    }
    report.facts["second event"] = back ?? "no reconnect within 60 s"
    report.facts["echoes after"] = await echoes(of: 100, prefix: "m-", in: received, arrivals) ? "all" : "missing"
    report.add("reconnects", Double(socket.reconnects))
    report.add("dropped", Double(socket.droppedFromOutbox))

    let ledgerSocket = try await session.webSocket(server.url("/ledger"))
    var ledgerMessages = ledgerSocket.messages.makeAsyncIterator()
    if case .text(let json)? = try await ledgerMessages.next(),
        let ledger = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], let messages = ledger["messages"] as? [String] {
        report.facts["ledger"] = messages.filter { !$0.hasPrefix("before-") }.joined(separator: ",")
        report.add("connections", Double(ledger["connections"] as? Int ?? -1))
    }
    await socket.close()
    report.facts["reader"] = await reader.value
    report.facts["echoes"] = received.withLock { $0.filter { $0.hasPrefix("m-") }.joined(separator: ",") }
    return report
}

private func describe(_ event: ReconnectEvent) -> String {
    switch event {
    case .lost: "lost"
    case .reconnected(let count, _): "reconnected \(count)"
    case .gaveUp(let error): "gave up: \(error)"
    @unknown default: "other"
    }
}

/// Whether `count` echoes starting with `prefix` came back, looking each time one arrives (at most 60 s).
private func echoes(of count: Int, prefix: String, in received: Locked<[String]>, _ arrivals: AsyncStream<Void>) async -> Bool {
    @Sendable func enough() -> Bool { received.withLock { $0.filter { $0.hasPrefix(prefix) }.count } >= count }
    return await bounded(seconds: 60) {
        if enough() { return true }
        for await _ in arrivals where enough() { return true }
        return enough()
    } ?? false
}
