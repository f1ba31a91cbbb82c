@testable import BrickCore
import BrickTesting
import BrickSystem
import Testing

/// The requests parked for a route, indexed by host and by deadline: a change wakes the waiters of the hosts
/// it brought back and no other, the deadlines end waits in their order, a cancelled wait ends alone.
@Suite struct RouteWaitersTests {
    @Test func aChangeWakesTheHostsItBroughtBackAndDeadlinesEndTheRestInOrder() async throws {
        let clock = ManualClock()
        let reachability = ManualReachability(.unreachable)
        let waiters = RouteWaiters(clock: clock)
        let ended = Ended()
        // 200 waiters on 40 hosts; host h's waiters have deadlines of (h + 1) seconds.
        let tasks = (0..<200).map { index in
            let host = index % 40
            return Task {
                let outcome = await waiters.wait(for: "h\(host).test", upTo: .seconds(host + 1), reachability)
                ended.values.withLock { $0.append((host, outcome)) }
            }
        }
        // Every wait parks at once (nothing sleeps here: the loops wait for a condition, bounded by the test's time).
        while waiters.parkedCount < 200 { await Task.yield() }
        for host in stride(from: 0, to: 40, by: 2) { reachability.goOnline("h\(host).test") }
        await waiters.routesChanged(reachability)
        #expect(waiters.parkedCount == 100)
        while ended.values.withLock({ $0.count }) < 100 { await Task.yield() }
        #expect(ended.values.withLock { $0 }.allSatisfy { $0.host % 2 == 0 && $0.outcome == .reachable })

        tasks[1].cancel()  // one of host 1's
        while ended.values.withLock({ $0.count }) < 101 { await Task.yield() }
        for second in 1...40 {
            clock.advance(by: .seconds(1))
            let due = (1..<40).filter { $0 % 2 == 1 && $0 + 1 <= second }.map { $0 == 1 ? 4 : 5 }.reduce(101, +)
            while ended.values.withLock({ $0.count }) < due { await Task.yield() }
        }
        for task in tasks { await task.value }
        let outcomes = ended.values.withLock { $0 }
        #expect(outcomes.count == 200)
        #expect(outcomes.filter { $0.outcome == .cancelled }.map(\.host) == [1])
        let expired = outcomes.filter { $0.outcome == .expired }.map(\.host)
        #expect(expired.count == 99 && expired == expired.sorted())  // in the order of their deadlines
        #expect(Set(expired) == Set(stride(from: 1, to: 40, by: 2)))
    }
}

/// The waits that ended: host and outcome, in the order they ended.
private final class Ended: Sendable {
    let values = Locked<[(host: Int, outcome: RouteWaiters.Outcome)]>([])
}
