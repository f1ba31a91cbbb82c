import BrickSystem
import CMutex
import Synchronization
import Testing

/// The package's mutex (a futex word, `CMutex`) and the locks made of it: one holder at a time, waiters
/// parked and woken, nothing lost under contention.
@Suite struct LockTests {
    /// State that only a holder of the lock may touch: a count and whether someone is inside.
    struct Guarded: ~Copyable {
        var count = 0
        var inside = false
        var overlaps = 0
    }

    /// Counts the threads that have started, then lets them all go at once: atomics, not the lock under test
    /// (a broken lock would otherwise hang the test instead of failing it).
    final class StartingLine: Sendable {
        let started = Atomic(0)
        let go = Atomic(false)
    }

    /// Whether the waiting thread has taken the mutex: an atomic, not the lock under test.
    final class Flag: Sendable {
        let value = Atomic(false)
    }

    /// Runs `body` on `threads` threads at once (each after all have started) and waits for them all.
    static func together(threads: Int, _ body: @escaping @Sendable () -> Void) throws {
        let line = StartingLine()
        var running: [JoinableThread] = []
        for index in 0..<threads {
            running.append(try startThread(named: "lock-test-\(index)") { _ in
                line.started.add(1, ordering: .relaxed)
                while !line.go.load(ordering: .acquiring) {}
                body()
            }.get())
        }
        while line.started.load(ordering: .relaxed) < threads {}
        line.go.store(true, ordering: .releasing)
        for thread in running { thread.join() }
    }

    /// Eight threads take one lock 100,000 times each: every increment counted, never two inside at once.
    @Test func oneHolderAtATimeAndNoIncrementLost() throws {
        let state = Locked(Guarded())
        try Self.together(threads: 8) {
            for _ in 0..<100_000 {
                state.withLock { state in
                    if state.inside { state.overlaps += 1 }
                    state.inside = true
                    state.count += 1
                    state.inside = false
                }
            }
        }
        state.withLock { state in
            #expect(state.count == 800_000)
            #expect(state.overlaps == 0)
        }
    }

    /// The same through a row of striped mutexes, two objects each guarded by the mutex its address picks.
    @Test func stripedLocksGuardTheirObjects() throws {
        final class Counter: @unchecked Sendable {  // `value` is touched only under `lock`
            var value = 0
            var lock: StripeLock?
        }
        let stripes = LockStripes()
        let counters = [Counter(), Counter()]
        for counter in counters { counter.lock = stripes.lock(for: counter) }
        try Self.together(threads: 6) {
            for turn in 0..<100_000 {
                let counter = counters[turn % 2]
                counter.lock?.withLock { counter.value += 1 }
            }
        }
        #expect(counters.map { counter in counter.lock?.withLock { counter.value } } == [300_000, 300_000])
    }

    /// A thread that finds the mutex held marks it (2) and sleeps; the release wakes it, it takes the mutex,
    /// and once it lets go the word is free (0) again.
    @Test func aWaiterIsParkedThenWokenByTheRelease() throws {
        let word = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
        word.initialize(to: 0)
        defer { word.deallocate() }
        let address = UInt(bitPattern: word)
        brick_mutex_lock(word)
        #expect(brick_mutex_state(word) == 1)
        let tookIt = Flag()
        let waiter = try startThread(named: "lock-waiter") { _ in
            guard let word = UnsafeMutablePointer<UInt32>(bitPattern: address) else { return }
            brick_mutex_lock(word)
            tookIt.value.store(true, ordering: .relaxed)
            brick_mutex_unlock(word)
        }.get()
        // The waiter marks the word once it has spun and is about to sleep: the holder's release must wake it.
        let deadline = monotonicNanoseconds() + 30_000_000_000
        while brick_mutex_state(word) != 2, monotonicNanoseconds() < deadline {}
        #expect(brick_mutex_state(word) == 2)
        let tookItEarly = tookIt.value.load(ordering: .relaxed)
        #expect(!tookItEarly)
        brick_mutex_unlock(word)
        waiter.join()
        let tookItAfter = tookIt.value.load(ordering: .relaxed)
        #expect(tookItAfter)
        #expect(brick_mutex_state(word) == 0)
    }
}
