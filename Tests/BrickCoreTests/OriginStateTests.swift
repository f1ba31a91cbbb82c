@testable import BrickCore
import BrickTesting
import Foundation
import Testing

/// An origin's budget, breaker and hold, as pure state: every time passed in, no I/O.
struct OriginStateTests {
    static let breaker = try! CircuitBreaker(window: 4, minimumCalls: 4, failureRate: 0.5, openDuration: .seconds(10), probes: 2)
    static let budget = try! RetryBudget(maxTokens: 10, tokenRatio: 0.5)
    static let failure = OriginOutcome(budget: .charge, breaker: .failure)
    static let success = OriginOutcome(budget: .refill, breaker: .success)

    @Test func chargedFailuresDrainTheBudgetAndRetriesStopAtHalf() {
        var state = OriginState(tokens: 10, now: .zero)
        var allowed: [Bool] = []
        for _ in 0..<6 {
            _ = state.record(Self.failure, probe: false, breaking: false, budget: Self.budget, Self.breaker, now: .zero)
            allowed.append(state.allowsRetry(Self.budget))
        }
        #expect(allowed == [true, true, true, true, false, false])  // 9, 8, 7, 6 > 5; then 5 and 4 are not
        for _ in 0..<3 { _ = state.record(Self.success, probe: false, breaking: false, budget: Self.budget, Self.breaker, now: .zero) }
        #expect(state.tokens == 5.5)
        #expect(state.allowsRetry(Self.budget))
        for _ in 0..<40 { _ = state.record(Self.success, probe: false, breaking: false, budget: Self.budget, Self.breaker, now: .zero) }
        #expect(state.tokens == 10)  // never past the top
    }

    @Test func whatCountsForTheOrigin() {
        #expect(OriginOutcome.of(status: 200, failure: nil, routeDown: false) == Self.success)
        #expect(OriginOutcome.of(status: 404, failure: nil, routeDown: false) == Self.success)
        for status in [408, 429, 500, 503, 599] { #expect(OriginOutcome.of(status: status, failure: nil, routeDown: false) == Self.failure) }
        for kind: TransportError.Kind in [.connectionLost, .timedOut, .stalled] {
            #expect(OriginOutcome.of(status: nil, failure: kind, routeDown: false) == Self.failure)
            #expect(OriginOutcome.of(status: nil, failure: kind, routeDown: true) == OriginOutcome(budget: .none, breaker: .none))
        }
        // Never left the client: not charged, but the origin did not answer.
        for kind: TransportError.Kind in [.connectionRefused, .connectTimeout] {
            #expect(OriginOutcome.of(status: nil, failure: kind, routeDown: false) == OriginOutcome(budget: .none, breaker: .failure))
        }
        for kind: TransportError.Kind in [.networkUnreachable, .cannotResolveHost, .cancelled, .tlsFailure] {
            #expect(OriginOutcome.of(status: nil, failure: kind, routeDown: false) == OriginOutcome(budget: .none, breaker: .none))
        }
    }

    @Test func theBreakerOpensOnTheFailureRateOfAFullEnoughWindow() {
        var state = OriginState(tokens: 10, now: .zero)
        let outcomes = [Self.failure, Self.success, Self.failure]
        for outcome in outcomes {
            #expect(state.record(outcome, probe: false, breaking: true, budget: nil, Self.breaker, now: .zero) == nil)  // fewer than 4
        }
        #expect(state.admit(now: .zero, breaking: true, Self.breaker) == .go(probe: false))
        #expect(state.record(Self.success, probe: false, breaking: true, budget: nil, Self.breaker, now: .seconds(1)) == .opened(until: .seconds(11)))
        #expect(state.admit(now: .seconds(5), breaking: true, Self.breaker) == .circuitOpen(until: .seconds(11)))
        #expect(state.admit(now: .seconds(5), breaking: false, Self.breaker) == .go(probe: false))  // a call without the breaker goes
    }

    @Test func theWindowSlides() {
        var state = OriginState(tokens: 10, now: .zero)
        for outcome in [Self.failure, Self.success, Self.success, Self.success, Self.success, Self.failure] {
            #expect(state.record(outcome, probe: false, breaking: true, budget: nil, Self.breaker, now: .zero) == nil)
        }
        // The window holds the last four: success, success, success, failure; one more failure makes two of four.
        #expect(state.record(Self.failure, probe: false, breaking: true, budget: nil, Self.breaker, now: .zero) == .opened(until: .seconds(10)))
    }

    @Test func halfOpenLetsExactlyTheProbesThroughAndClosesWhenAllAreAnswered() {
        var state = OriginState(tokens: 10, now: .zero)
        state.breaker = .open(until: .seconds(10))
        #expect(state.admit(now: .seconds(10), breaking: true, Self.breaker) == .go(probe: true))
        #expect(state.admit(now: .seconds(10), breaking: true, Self.breaker) == .go(probe: true))
        #expect(state.admit(now: .seconds(10), breaking: true, Self.breaker) == .circuitOpen(until: nil))
        // A probe that counts for nothing (cancelled, route down) gives its place back.
        #expect(state.record(OriginOutcome(budget: .none, breaker: .none), probe: true, breaking: true, budget: nil, Self.breaker, now: .seconds(10)) == nil)
        #expect(state.admit(now: .seconds(10), breaking: true, Self.breaker) == .go(probe: true))
        #expect(state.record(Self.success, probe: true, breaking: true, budget: nil, Self.breaker, now: .seconds(11)) == nil)
        #expect(state.record(Self.success, probe: true, breaking: true, budget: nil, Self.breaker, now: .seconds(11)) == .closed)
        #expect(state.breaker == .closed)
    }

    @Test func aFailedProbeOpensTheBreakerAgain() {
        var state = OriginState(tokens: 10, now: .zero)
        state.breaker = .open(until: .seconds(10))
        #expect(state.admit(now: .seconds(12), breaking: true, Self.breaker) == .go(probe: true))
        #expect(state.record(Self.failure, probe: true, breaking: true, budget: nil, Self.breaker, now: .seconds(13)) == .opened(until: .seconds(23)))
        #expect(state.admit(now: .seconds(14), breaking: true, Self.breaker) == .circuitOpen(until: .seconds(23)))
    }

    @Test func aHoldStopsEveryCallUntilItEndsAndTheLongerHoldWins() {
        var state = OriginState(tokens: 10, now: .zero)
        state.hold(until: .seconds(2))
        state.hold(until: .seconds(1))
        #expect(state.admit(now: .seconds(1), breaking: false, Self.breaker) == .hold(until: .seconds(2)))
        #expect(state.holds(.seconds(1)))
        #expect(state.admit(now: .seconds(2), breaking: false, Self.breaker) == .go(probe: false))
        #expect(!state.holds(.seconds(2)))
    }

    @Test(arguments: [
        ("https://API.example.com/a?b", "https://api.example.com:443"),
        ("http://user:pw@example.com:8080/x", "http://example.com:8080"),
        ("http://[::1]:81/", "http://[::1]:81"),
        ("http://[::1]/", "http://[::1]:80"),
        ("HTTP://example.com#frag", "http://example.com:80"),
    ])
    func anOriginIsSchemeHostAndPort(url: String, origin: String) {
        #expect(OriginTicket.origin(of: url) == origin)
    }

    @Test func theTableKeepsAtMostItsOriginsForgettingTheLeastRecentlyUsed() throws {
        let clock = ManualClock()
        let table = OriginTable(try OriginProtection(maxOrigins: 2, idleExpiry: .seconds(60)), clock: clock)
        table.update("a") { state, now in state.hold(until: now + .seconds(30)) }
        clock.advance(by: .seconds(1))
        table.update("b") { _, _ in }
        clock.advance(by: .seconds(1))
        table.update("a") { _, _ in }  // a is used again: b is now the least recent
        #expect(table.holdsAny)
        clock.advance(by: .seconds(1))
        table.update("c") { _, _ in }
        #expect(table.snapshot().map(\.origin).sorted() == ["a", "c"])
        clock.advance(by: .seconds(1))
        table.update("d") { _, _ in }  // a goes, and its hold with it
        #expect(table.snapshot().map(\.origin).sorted() == ["c", "d"])
        #expect(!table.holdsAny)
    }

    @Test func aHoldThatEndedStopsCountingOnceLookedAt() {
        let clock = ManualClock()
        let table = OriginTable(OriginProtection(), clock: clock)
        table.update("a") { state, now in state.hold(until: now + .seconds(1)) }
        #expect(table.holdsAny)
        clock.advance(by: .seconds(2))
        table.update("a") { _, _ in }
        #expect(!table.holdsAny)
    }

    /// A call asks the table nothing after a success while every budget is full: the table must know when
    /// one is not, from the charge until refills bring it back, and forget it with its origin.
    @Test func theTableKnowsWhetherAnyBudgetIsShortOfTokens() throws {
        let clock = ManualClock()
        let budget = try RetryBudget(maxTokens: 2, tokenRatio: 0.5)
        let table = OriginTable(try OriginProtection(retryBudget: budget, maxOrigins: 1), clock: clock)
        let charge = OriginOutcome(budget: .charge, breaker: .none), refill = OriginOutcome(budget: .refill, breaker: .none)
        let breaker = table.settings.circuitBreaker
        table.update("a") { state, now in _ = state.record(refill, probe: false, breaking: false, budget: budget, breaker, now: now) }
        #expect(!table.owesAny)
        table.update("a") { state, now in _ = state.record(charge, probe: false, breaking: false, budget: budget, breaker, now: now) }
        #expect(table.owesAny)
        table.update("a") { state, now in _ = state.record(refill, probe: false, breaking: false, budget: budget, breaker, now: now) }
        #expect(table.owesAny)  // 1.5 of 2
        table.update("a") { state, now in _ = state.record(refill, probe: false, breaking: false, budget: budget, breaker, now: now) }
        #expect(!table.owesAny)
        table.update("a") { state, now in _ = state.record(charge, probe: false, breaking: false, budget: budget, breaker, now: now) }
        table.update("b") { _, _ in }  // a is forgotten to make room, and its debt with it
        #expect(!table.owesAny)
    }

    @Test func settingsOutOfRangeAreRefusedWhenMade() {
        #expect(throws: OriginSettingError.self) { try RetryBudget(maxTokens: 0) }
        #expect(throws: OriginSettingError.self) { try RetryBudget(tokenRatio: -0.1) }
        #expect(throws: OriginSettingError.self) { try RetryBudget(tokenRatio: .nan) }
        #expect(throws: OriginSettingError.self) { try CircuitBreaker(window: 0) }
        #expect(throws: OriginSettingError.self) { try CircuitBreaker(window: 65) }
        #expect(throws: OriginSettingError.self) { try CircuitBreaker(window: 5, minimumCalls: 6) }
        #expect(throws: OriginSettingError.self) { try CircuitBreaker(openDuration: .zero) }
        #expect(throws: OriginSettingError.self) { try OriginProtection(maxOrigins: 0) }
        do {
            _ = try CircuitBreaker(failureRate: 1.5)
            Issue.record("a failure rate of 1.5 was taken")
        } catch {
            #expect(error.description == "CircuitBreaker.failureRate must be between 1e-06 and 1; it was 1.5")
        }
    }
}
