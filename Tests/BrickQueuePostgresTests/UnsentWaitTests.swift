#if Postgres
@testable import BrickQueue
@testable import BrickQueuePostgres
import BrickSystem
import Foundation
import Glibc
import Testing
import TestServers

/// A queued request that never reached the server is never lost: between attempts it is back in line, not
/// "being sent", so a process killed in the wait loses nothing. Three POSTs to a port that refuses them (bound,
/// not listening, so no other test can take it), the process SIGKILLed in its backoff, the port then listening
/// and the queue opened again by a new process: each POST arrives once. On both stores.
@Suite struct UnsentWaitTests {
    /// A server that binds a free loopback port and tells it ("bound PORT"), refuses every connection until it
    /// is sent SIGUSR1, then listens ("listening"), answers every POST 200 and tells each body on a line of its
    /// own. The port stays bound throughout, so nothing else on the machine can take it in the meantime.
    static let server = #"""
        import http.server, signal, socket, sys
        class Answer(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                sys.stderr.write("arrived " + body.decode() + "\n"); sys.stderr.flush()
                self.send_response(200); self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"ok")
            def log_message(self, *arguments): pass
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
        bound = socket.socket(); bound.bind(("127.0.0.1", 0))
        sys.stderr.write("bound %d\n" % bound.getsockname()[1]); sys.stderr.flush()
        signal.sigwait([signal.SIGUSR1])
        server = http.server.HTTPServer(bound.getsockname(), Answer, bind_and_activate=False)
        server.socket.close(); server.socket = bound; server.server_activate()
        sys.stderr.write("listening\n"); sys.stderr.flush()
        server.serve_forever()
        """#

    @Test(arguments: ["sqlite", "postgres"])
    func aRequestThatNeverLeftSurvivesADeathInItsBackoff(store: String) async throws {
        let python = try #require(Paths.executable("python3"))
        let server = try PipedChild([python, "-c", Self.server])
        defer { kill(server.process.pid, SIGKILL) }
        var lines = server.errorLines.makeAsyncIterator()
        let bound = try #require(await lines.next())
        let port = try #require(Int(bound.dropFirst("bound ".count)), "the server told its port: \(bound)")
        let directory = try Paths.scratchDirectory("unsent-wait")
        defer { Paths.removeTree(directory) }
        let schema = Fleet.schema()
        let database = try Fleet.server()
        let storeArguments = store == "sqlite" ? ["--sqlite", directory + "/queue.sqlite"] : []
        func fleet(_ arguments: [String]) throws -> PipedChild {
            try FleetProcessTests.fleetProcess([schema, "default"] + storeArguments + arguments, database: database)
        }
        /// The first row's state and attempts, as the store keeps them.
        func firstRow() async throws -> String {
            if store == "sqlite" {
                let script = "import sqlite3, sys; c = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True); r = c.execute('SELECT state, attempts FROM requests ORDER BY id LIMIT 1').fetchone(); print(r and '%s %d' % r)"
                return try await PipedChild.run([python, "-c", script, directory + "/queue.sqlite"]).text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let rows = try PostgresConnection(Fleet.database(database))
                .query("SELECT state || ' ' || attempts::text FROM \"\(schema)\".requests ORDER BY id LIMIT 1").values
            return rows.first?.first.flatMap { $0 } ?? "none"
        }

        // Queued and tried once (refused): then a wait of up to ten minutes, killed in it. No retry budget: the
        // rules alone decide that the refused request goes again.
        let first = try fleet(["--no-retry-budget", "--break-ms", "600000", "--enqueue", "3", "http://127.0.0.1:\(port)/", "t", "--deliver"])
        defer { kill(first.process.pid, SIGKILL) }
        // The row is watched until it is back in line (a look at the store, not a sleep), for up to two minutes
        // (a sanitizer's build starts slowly).
        var seen = "none"
        let deadline = ContinuousClock.now + .seconds(120)
        while seen != "pending 1", ContinuousClock.now < deadline { seen = (try? await firstRow()) ?? "unreadable" }
        #expect(seen == "pending 1", "the first request is back in line in its backoff, not being sent")
        kill(first.process.pid, SIGKILL)
        _ = await first.outcome()

        kill(server.process.pid, SIGUSR1)
        var arrivals: [String] = []
        #expect(await lines.next() == "listening")
        let second = try fleet(["--deliver"])
        defer { kill(second.process.pid, SIGKILL) }
        let reports = FleetProcessTests.Reports()
        reports.follow(second)
        let told = await reports.waitUntil(within: .seconds(60)) { state in state.outcomes.values.joined().count >= 3 }
        #expect(told, "the second process told three outcomes")
        #expect(reports.state.withLock { $0.outcomes.values.joined().map(\.kind) } == ["delivered", "delivered", "delivered"])
        kill(server.process.pid, SIGKILL)
        while let line = await lines.next() { arrivals.append(line) }
        #expect(arrivals.sorted() == ["arrived default/t/0", "arrived default/t/1", "arrived default/t/2"])
    }
}
#endif
