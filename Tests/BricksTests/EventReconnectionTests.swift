import BrickRequest
import BrickSystem
import BrickTesting
import TestServers
import Testing

/// A clock whose sleeps return at once, moving its time by what each asked for, and recording it: how
/// long a reconnection would wait. Nothing else moves its time.
final class RecordingClock: Clock, Sendable {
    typealias Instant = ManualClock.Instant
    private let state = Locked<(now: Instant, waits: [Duration])>((Instant(offset: .zero), []))
    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .nanoseconds(1) }
    /// Every wait asked for, in order.
    var waits: [Duration] { state.withLock { $0.waits } }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        state.withLock { state in
            state.waits.append(state.now.duration(to: deadline))
            state.now = max(state.now, deadline)
        }
    }
}

/// Reconnections a server cannot abuse: ids that could not go back are not kept (the stream goes on),
/// `retry: 0` with one event per connection meets a floor instead of a storm, and connections that bring
/// nothing back off.
@Suite struct EventReconnectionTests {
    static func head(_ extra: String = "") -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\(extra)\r\n"
    }

    static func session(_ clock: RecordingClock) -> Session {
        var configuration = Session.Configuration()
        configuration.clock = clock
        return Session(configuration: configuration)
    }

    @Test func anIDThatCannotBeSentIsIgnoredAndTheLastGoodOneGoesBack() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.script("ids", [
            Self.head() + "id: good\ndata: one\n\nid: bad\u{1}id\ndata: two\n\n",
            Self.head() + "id: " + String(repeating: "x", count: 200_000) + "\ndata: three\n\n",
            Self.head() + "id: \u{7F}\ndata: four\n\n",
            "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n",
        ])
        var data: [String] = []
        var ids: [String] = []
        for try await event in Self.session(RecordingClock()).serverSentEvents(TransportRequest(url: server.baseURL + "/scripted?key=ids")) {
            data.append(event.data)
            ids.append(event.id)
        }
        #expect(data == ["one", "two", "three", "four"])
        #expect(ids == ["good", "good", "good", "good"])
        let sent = server.fieldLines("ids").map { lines in lines.first { $0.lowercased().hasPrefix("last-event-id:") } ?? "none" }
        #expect(sent == ["none", "Last-Event-ID: good", "Last-Event-ID: good", "Last-Event-ID: good"])
    }

    /// `retry: 0` with one event per connection: every connection delivered, so none backs off, but none
    /// comes sooner than the floor (at most four connections a second).
    @Test func retryZeroWithOneEventPerConnectionWaitsAtLeastTheFloor() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.script("storm", [Self.head() + "retry: 0\ndata: x\n\n"])
        let clock = RecordingClock()
        var events = 0
        for try await _ in Self.session(clock).serverSentEvents(TransportRequest(url: server.baseURL + "/scripted?key=storm")) {
            events += 1
            if events == 8 { break }
        }
        #expect(server.count("storm") == 8)
        #expect(clock.waits == Array(repeating: .milliseconds(250), count: 7), "\(clock.waits)")
    }

    /// WHATWG HTML §9.2: the wait doubles while connections end without delivering an event, and starts
    /// again from the server's `retry:` once one delivers: 1.2 s, 1.2 s after a connection with events; then
    /// 1.2, 2.4, 4.8 s while connections bring nothing, and 1.2 s again after one that brings an event.
    @Test func theWaitBacksOffOnlyWhileConnectionsDeliverNothing() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let retry = Self.head() + "retry: 1200\n\n"
        server.script("backoff", [
            retry + "data: one\n\n", retry + "data: two\n\ndata: three\n\n", retry, retry, retry, retry + "data: four\n\n",
            "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n",
        ])
        let clock = RecordingClock()
        var data: [String] = []
        let rules = AutoRetryConfiguration(breakTime: .seconds(1), maxRetryCount: 5, maxBreakTime: .seconds(30))
        for try await event in Self.session(clock).serverSentEvents(TransportRequest(url: server.baseURL + "/scripted?key=backoff"), retry: rules) {
            data.append(event.data)
        }
        #expect(data == ["one", "two", "three", "four"])
        #expect(clock.waits == [1200, 1200, 1200, 2400, 4800, 1200].map { Duration.milliseconds($0) }, "\(clock.waits)")
    }

    @Test func theDelayHasAFloorAndDoublesUpToTheCap() {
        #expect(ServerSentEvents.reconnectionDelay(requested: .zero, failedInARow: 0, cap: .seconds(30)) == .milliseconds(250))
        #expect(ServerSentEvents.reconnectionDelay(requested: .seconds(3), failedInARow: 1, cap: .seconds(30)) == .seconds(3))
        #expect(ServerSentEvents.reconnectionDelay(requested: .zero, failedInARow: 3, cap: .seconds(30)) == .seconds(1))
        #expect(ServerSentEvents.reconnectionDelay(requested: .zero, failedInARow: 1000, cap: .seconds(30)) == .seconds(30))
        #expect(ServerSentEvents.reconnectionDelay(requested: .seconds(90), failedInARow: 9, cap: .seconds(30)) == .seconds(90))
    }
}
