#if Postgres
@testable import BrickQueue
@testable import BrickQueuePostgres
import BrickSystem
import Dispatch
import Foundation
import Glibc
import LoopbackServer
import Testing
import TestServers

/// Processes of a fleet (`queue-fleet`) on one PostgreSQL database, killed (SIGKILL) and paused (SIGSTOP)
/// while they deliver.
@Suite struct FleetProcessTests {
    /// A ledger server: it applies each request (its body, its `Idempotency-Key`, the deliverer's pid) in
    /// arrival order. A request whose body is in `holds` is held, each time it arrives: the test hears of it
    /// (the body, the deliverer's pid, the how-manieth arrival of that body) and decides when it goes on
    /// (``release(_:arrival:)``), and whether it is applied first (`true`) or not at all.
    final class Ledger: Sendable {
        let server: LoopbackServer
        let applied = Locked<[(body: String, key: String, deliverer: Int32)]>([])
        let held: AsyncStream<(body: String, deliverer: Int32, arrival: Int)>
        private let gates = Locked<[String: [DispatchSemaphore]]>([:])

        init(holds: [String: Bool]) throws {
            let (held, holding) = AsyncStream<(body: String, deliverer: Int32, arrival: Int)>.makeStream()
            self.held = held
            let applied = applied, gates = gates
            server = try LoopbackServer { request in
                let body = String(decoding: request.body, as: UTF8.self)
                let deliverer = Int32(request.header("X-Deliverer") ?? "") ?? 0
                let apply = { applied.withLock { $0.append((body, request.header("Idempotency-Key") ?? "", deliverer)) } }
                guard let appliesFirst = holds[body] else {
                    apply()
                    return .text("applied")
                }
                if appliesFirst { apply() }
                let gate = DispatchSemaphore(value: 0)
                let arrival = gates.withLock { gates in
                    gates[body, default: []].append(gate)
                    return gates[body, default: []].count
                }
                holding.yield((body, deliverer, arrival))
                gate.wait()
                return appliesFirst ? .text("applied") : .text("not applied", status: 503)
            }
        }

        /// Lets the `arrival`th request with `body` (from 1) have its answer.
        func release(_ body: String, arrival: Int = 1) {
            gates.withLock { $0[body]?.dropFirst(arrival - 1).first }?.signal()
        }

        func stop() {
            gates.withLock { $0.values.flatMap { $0 } }.forEach { $0.signal() }
            server.stop()
        }
    }

    /// What the processes told: each request queued (queue, id, body) and each outcome, with the process
    /// that told it.
    final class Reports: Sendable {
        typealias State = (queued: [Int64: (queue: String, body: String)], outcomes: [Int64: [(kind: String, by: Int32)]])
        let state = Locked<State>(([:], [:]))
        private let changed: AsyncStream<Void>
        private let change: AsyncStream<Void>.Continuation

        init() { (changed, change) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1)) }

        /// Reads a process's lines until it ends.
        func follow(_ child: PipedChild) {
            let pid = child.process.pid
            Task {
                for await line in child.errorLines {
                    let parts = line.split(separator: " ", maxSplits: 3).map(String.init)
                    guard parts.count >= 4, let id = Int64(parts[2]) else { continue }
                    state.withLock { state in
                        if parts[0] == "queued" { state.queued[id] = (parts[1], parts[3]) }
                        if parts[0] == "outcome" { state.outcomes[id, default: []].append((parts[3], pid)) }
                    }
                    change.yield()
                }
            }
        }

        /// Waits until `condition` holds of what was told (`false` if it does not within `limit`).
        func waitUntil(within limit: Duration = .seconds(60), _ condition: @escaping @Sendable (State) -> Bool) async -> Bool {
            let timer = Task { [change] in
                try await Task.sleep(for: limit)
                change.yield()
            }
            defer { timer.cancel() }
            let deadline = ContinuousClock.now + limit
            if state.withLock({ condition($0) }) { return true }
            for await _ in changed {
                if state.withLock({ condition($0) }) { return true }
                if ContinuousClock.now >= deadline { return false }
            }
            return false
        }
    }

    static func fleetProcess(_ arguments: [String], database: PostgresServer) throws -> PipedChild {
        let program = try #require(Paths.builtProduct("queue-fleet"))
        return try PipedChild([program] + arguments, environment: ["BRICK_PG": database.connectionString])
    }

    @Test func threeProcessesDeliverTwoThousandRequestsThroughTwoKillsLosingNothingAndApplyingNothingTwice() async throws {
        let database = try Fleet.server()
        let schema = Fleet.schema()
        // Killed while its request is at the server, not yet applied; then killed after the server applied one.
        let (notApplied, appliedThenKilled) = ("a/p1/40", "b/p2/120")
        let ledger = try Ledger(holds: [notApplied: false, appliedThenKilled: true])
        defer { ledger.stop() }
        let reports = Reports()
        var processes: [PipedChild] = []
        defer { processes.forEach { kill($0.process.pid, SIGKILL) } }
        for (index, count) in [334, 333, 333].enumerated() {
            let child = try Self.fleetProcess(
                [schema, "a,b", "--lease-ms", "1000", "--enqueue", String(count), ledger.server.baseURL + "/", "p\(index)", "--deliver"], database: database)
            reports.follow(child)
            processes.append(child)
        }
        var kills: [String: Int32] = [:]
        for await (body, deliverer, _) in ledger.held {
            #expect(kill(deliverer, SIGKILL) == 0)
            kills[body] = deliverer
            ledger.release(body)
            // A process takes the killed one's place.
            let replacement = try Self.fleetProcess([schema, "a,b", "--lease-ms", "1000", "--deliver"], database: database)
            reports.follow(replacement)
            processes.append(replacement)
            if kills.count == 2 { break }
        }
        // Done when every request was told, but one a killed process had in flight in its other queue (the
        // server applied it from that process, which may have recorded it and died before telling); the two
        // held ones are told by the processes that took them over.
        let killed = Set(kills.values)
        let told = await reports.waitUntil(within: .seconds(240)) { [ledger] state in
            let deliverers = Dictionary(ledger.applied.withLock { $0 }.map { ($0.body, $0.deliverer) }, uniquingKeysWith: { _, last in last })
            return state.queued.count == 2000
                && state.queued.allSatisfy { id, request in
                    state.outcomes[id] != nil || (![notApplied, appliedThenKilled].contains(request.body) && deliverers[request.body].map(killed.contains) == true)
                }
        }
        #expect(told)
        let (queued, outcomes) = reports.state.withLock { ($0.queued, $0.outcomes) }
        #expect(queued.count == 2000)
        #expect(outcomes.values.allSatisfy { $0.count == 1 })
        let ended = outcomes.mapValues { $0.first?.kind ?? "" }
        let applied = ledger.applied.withLock { $0 }
        let byBody = Dictionary(queued.map { ($0.value.body, $0.key) }, uniquingKeysWith: { first, _ in first })
        let appliedIDs = Set(applied.compactMap { byBody[$0.body] })
        let appliedByKilled = Set(applied.filter { killed.contains($0.deliverer) }.compactMap { byBody[$0.body] })
        // Nothing applied twice, by idempotency key.
        #expect(Set(applied.map(\.key)).count == applied.count && appliedIDs.count == applied.count)
        // The two held requests may have arrived (one did, one did not); besides them, at most one request per
        // kill (one the killed process had in flight in its other queue) may have too.
        let mayHaveArrived = Set(ended.filter { $0.value == "mayHaveArrived" }.keys)
        let held = Set([notApplied, appliedThenKilled].compactMap { byBody[$0] })
        #expect(held.count == 2 && held.isSubset(of: mayHaveArrived) && mayHaveArrived.count <= held.count + kills.count)
        let (appliedOne, unappliedOne) = (try #require(byBody[appliedThenKilled]), try #require(byBody[notApplied]))
        #expect(appliedIDs.contains(appliedOne) && !appliedIDs.contains(unappliedOne))
        // Every other request arrived: delivered and told, or told by nobody because the process that
        // delivered it was killed just after (at most one per kill).
        let untold = Set(queued.keys).subtracting(outcomes.keys)
        #expect(untold.count <= kills.count && untold.isSubset(of: appliedByKilled))
        let delivered = Set(ended.filter { $0.value == "delivered" }.keys)
        #expect(delivered.union(untold).union(mayHaveArrived).count == 2000 && delivered.isSubset(of: appliedIDs))
        #expect(Set(queued.keys).subtracting(mayHaveArrived).isSubset(of: appliedIDs))
        // Each ordered queue's requests were applied in the order they were queued.
        for queue in ["a", "b"] {
            let ids = applied.filter { $0.body.hasPrefix(queue + "/") }.compactMap { byBody[$0.body] }
            #expect(ids == ids.sorted())
        }
        #expect(Set(kills.values).count >= 1 && kills.values.allSatisfy { $0 > 0 })
    }

    @Test func aProcessPausedPastItsLeaseCannotRecordAnOutcomeOverItsSuccessors() async throws {
        let database = try Fleet.server()
        let schema = Fleet.schema()
        let heldBody = "a/p0/2"
        let ledger = try Ledger(holds: [heldBody: true])  // applied, its answer held back, each time it comes
        defer { ledger.stop() }
        let reports = Reports()
        var processes: [PipedChild] = []
        defer { processes.forEach { kill($0.process.pid, SIGCONT); kill($0.process.pid, SIGKILL) } }
        let common = [schema, "a", "--unordered", "--lease-ms", "1000", "--method", "PUT"]
        for arguments in [["--enqueue", "5", ledger.server.baseURL + "/", "p0", "--deliver"], ["--deliver"]] {
            let child = try Self.fleetProcess(common + arguments, database: database)
            reports.follow(child)
            processes.append(child)
        }
        var held = ledger.held.makeAsyncIterator()
        let paused = try #require(await held.next()).deliverer
        #expect(kill(paused, SIGSTOP) == 0)
        // Its lease runs out: the other process claims the PUT (it may go twice) and sends it again; that
        // answer is held too, so the successor's claim is still open.
        let successor = try #require(await held.next())
        #expect(successor.arrival == 2 && successor.deliverer != paused)
        // The paused process resumes and gets its answer; it cannot record it. It goes on with the queue: a
        // request queued now is delivered by it (the successor is still held), after it dealt with that answer.
        ledger.release(heldBody, arrival: 1)
        #expect(kill(paused, SIGCONT) == 0)
        let late = try Self.fleetProcess([schema, "a", "--unordered", "--enqueue", "1", ledger.server.baseURL + "/", "late"], database: database)
        reports.follow(late)
        #expect(await late.outcome().status == 0)
        #expect(await reports.waitUntil { state in state.queued.contains { $0.value.body == "a/late/0" && state.outcomes[$0.key] != nil } })
        let heldID = try #require(reports.state.withLock { $0.queued.first { $0.value.body == heldBody }?.key })
        #expect(reports.state.withLock { $0.outcomes[heldID] } == nil)
        let row = try Fleet.sql(Fleet.deliverer(schema, name: "a", ordered: false), "SELECT state FROM \(PostgresSchema(schema).qualified("requests")) WHERE id = $1", [.integer(heldID)])
        #expect(row.values == [["sending"]])
        // The successor's answer comes: its outcome is the one recorded.
        ledger.release(heldBody, arrival: 2)
        #expect(await reports.waitUntil { $0.outcomes[heldID] != nil })
        let told = reports.state.withLock { $0.outcomes[heldID] ?? [] }
        #expect(told.count == 1 && told.first?.kind == "delivered" && told.first?.by == successor.deliverer)
    }
}
#endif
