/// A clock read as time since a start, whatever its instants are: the waiters' deadlines on the session's
/// clock (`any Clock<Duration>`: a continuous clock, or a test's manual one).
protocol Timeline: Sendable {
    /// Time since the start.
    func now() -> Duration
    /// Sleeps until `offset` after the start; throws when cancelled.
    func sleep(until offset: Duration) async throws
}

struct ClockTimeline<C: Clock>: Timeline where C.Duration == Duration {
    let clock: C
    let start: C.Instant

    init(_ clock: C) {
        self.clock = clock
        start = clock.now
    }

    func now() -> Duration { start.duration(to: clock.now) }
    func sleep(until offset: Duration) async throws { try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) }
}

/// ``ClockTimeline`` on the continuous clock, every session's but a test's: the same readings, made without
/// going through a generic clock's witnesses (a call reads the timeline when it begins and at every wait).
struct ContinuousTimeline: Timeline {
    let start = ContinuousClock.now

    func now() -> Duration { start.duration(to: .now) }
    func sleep(until offset: Duration) async throws { try await ContinuousClock().sleep(until: start.advanced(by: offset), tolerance: nil) }
}
