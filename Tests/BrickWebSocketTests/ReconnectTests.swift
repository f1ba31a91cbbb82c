@testable import BrickWebSocket
import FoundationEssentials
import Testing

/// The reconnecting WebSocket's rules as pure state: its backoff, what counts as a loss, and its outbox's
/// bound and drop rule. The whole of it through a real outage: OutageTests.
struct ReconnectTests {
    @Test func theDelayDoublesUpToItsMaximumAndIsJitteredDownToHalf() {
        let policy = ReconnectPolicy.default
        #expect(policy.delay(after: 0, unit: 0.999_999) <= .milliseconds(250))
        #expect(policy.delay(after: 0, unit: 0) == .milliseconds(125))
        #expect(policy.delay(after: 2, unit: 0) == .milliseconds(500))
        #expect(policy.delay(after: 10, unit: 0) == .seconds(5))
        #expect(policy.delay(after: Int.max, unit: 0) == .seconds(5))  // no overflow: capped doublings
        #expect(policy.delay(after: -3, unit: 0) == .milliseconds(125))
    }

    @Test func aConnectionLostSoonAfterOpeningCountsAsAFailedAttemptOneThatLivedLongStartsAgain() {
        let policy = ReconnectPolicy.default
        #expect(Reconnector.failuresCarried(0, lived: .seconds(1), policy) == 1)
        #expect(Reconnector.failuresCarried(4, lived: .seconds(9), policy) == 5)
        #expect(Reconnector.failuresCarried(4, lived: .seconds(11), policy) == 0)
    }

    @Test func aBrokenConnectionOrAPeerGoingAwayIsALossAProtocolErrorOrANormalCloseIsAnEnd() {
        let lost = WebSocketError(.connectionLost, "gone")
        #expect(Reconnector.loss(.failure(lost), nil)?.kind == .connectionLost)
        #expect(Reconnector.loss(.failure(WebSocketError(.pingTimedOut, "silent")), nil)?.kind == .pingTimedOut)
        #expect(Reconnector.loss(.failure(.protocolViolation("bad")), nil) == nil)
        #expect(Reconnector.loss(.failure(.tooBig("big")), nil) == nil)
        #expect(Reconnector.loss(.success(()), WebSocketClose(code: 1000, reason: "")) == nil)
        #expect(Reconnector.loss(.success(()), nil) == nil)
        for code: UInt16 in [1001, 1011, 1012, 1013, 1014] {
            #expect(Reconnector.loss(.success(()), WebSocketClose(code: code, reason: "later"))?.kind == .connectionLost)
        }
    }

    @Test func anOutboxRefusesOrDropsTheOldestWhenFullAndNoOutboxRefusesAll() throws {
        var state = Reconnector.State()
        #expect(throws: WebSocketError.self) { try Reconnector.keep(.text("a"), in: &state, nil) }
        let refusing = ReconnectPolicy.Outbox(capacity: 2)
        try Reconnector.keep(.text("a"), in: &state, refusing)
        try Reconnector.keep(.text("b"), in: &state, refusing)
        do {
            try Reconnector.keep(.text("c"), in: &state, refusing)
            Issue.record("a full outbox took a message")
        } catch { #expect(error.kind == .outboxFull) }
        let dropping = ReconnectPolicy.Outbox(capacity: 2, whenFull: .dropOldest)
        for index in 0..<200 { try Reconnector.keep(.text("\(index)"), in: &state, dropping) }
        #expect(state.outboxCount == 2)
        #expect(state.dropped == 200)
        #expect(Array(state.outbox[state.outboxStart...]) == [.text("198"), .text("199")])
        #expect(state.outbox.count < 70)  // the dropped are let go, not kept behind the start
        #expect(ReconnectPolicy.Outbox(capacity: 0).capacity == 1)
    }
}
