import Foundation
import BrickRequest
import BrickTesting
import Testing
import TestServers

/// Events from the fault server, which sends them in awkward pieces and drops the first connection midway.
final class Notifications: Component, GETRequestType, SoftAutoRetryType {
    let session: Session
    let URLString: String
    init(_ url: String, session: Session) {
        self.session = session
        URLString = url
        super.init()
    }
}

/// The same, as a POST: it may have arrived, so it is never reopened.
final class Completion: Component, POSTRequestType, SoftAutoRetryType, RawBodyType {
    let session: Session
    let URLString: String
    var rawBody: RequestBody { .data(Data(#"{"prompt": "hi"}"#.utf8)) }
    init(_ url: String, session: Session) {
        self.session = session
        URLString = url
        super.init()
    }
}

@Suite struct ServerSentEventsTests {
    @Test func eventsArriveWholeAndADroppedConnectionResumesWithTheLastEventID() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var events: [ServerSentEvent] = []
        for try await event in Notifications(server.baseURL + "/events?key=get", session: Session()).serverSentEvents() {
            events.append(event)
        }
        #expect(events.map { [$0.type, $0.data, $0.id] } == FaultServer.eventsExpected.map { [$0.type, $0.data, $0.id] })
        #expect(server.count("get") == 3, "dropped, ended cleanly, then 204")
    }

    @Test func reconnectionWaitsTheServersRetryTimeOnTheSessionsClock() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let clock = ManualClock()
        var configuration = Session.Configuration()
        configuration.clock = clock
        let session = Session(configuration: configuration)
        let reading = Task {
            var count = 0
            for try await _ in Notifications(server.baseURL + "/events?key=clock", session: session).serverSentEvents() { count += 1 }
            return count
        }
        // The stream's `retry: 300`, not the rules' 1 s; the same for the second connection, which delivered
        // events too (only connections that bring nothing back off).
        for (connection, wait) in [(1, 300), (2, 300)] {
            await clock.waitForSleepers()
            #expect(server.count("clock") == connection)
            clock.advance(by: .milliseconds(wait - 1))
            #expect(clock.sleeperCount == 1, "not released before \(wait) ms")
            clock.advance(by: .milliseconds(1))
            #expect(clock.sleeperCount == 0, "released after \(wait) ms")
            if clock.sleeperCount > 0 { clock.advance(by: .seconds(10)) }
        }
        #expect(try await reading.value == 5)
        #expect(server.count("clock") == 3)
    }

    @Test func aRequestThatMayHaveArrivedIsNotReopenedAndOneConnectionIsOne() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var posted: [String] = []
        do {
            for try await event in Completion(server.baseURL + "/events?key=post", session: Session()).serverSentEvents() {
                posted.append(event.data)
            }
            Issue.record("the dropped connection ends the events with an error")
        } catch {
            #expect(error.transportError?.kind == .connectionLost, "\(error)")
        }
        #expect(posted == ["first", "multi\nline", "caf\u{E9} \u{1F9F1}"])
        #expect(server.count("post") == 1)

        var single: [String] = []
        do {
            for try await event in Notifications(server.baseURL + "/events?key=single", session: Session()).stream().serverSentEvents() {
                single.append(event.id)
            }
        } catch {
            #expect(error.transportError?.kind == .connectionLost)
        }
        #expect(single == ["1", "2", "3"])
        #expect(server.count("single") == 1)
    }

    @Test func aBodyThatIsNotAnEventStreamIsRefused() async throws {
        let nginx = try Nginx.shared.get()
        do {
            for try await _ in Session().serverSentEvents(TransportRequest(url: nginx.url("/small"))) {}
            Issue.record("not an event stream")
        } catch {
            guard case .validation(.unacceptableContentType(let type, _), _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(type == "application/octet-stream")
        }
    }
}
