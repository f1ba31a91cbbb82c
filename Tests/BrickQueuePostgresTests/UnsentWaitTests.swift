#if Postgres
@testable import BrickQueue
@testable import BrickQueuePostgres
import BrickSystem
import Foundation
import Glibc
import Testing
import TestServers

/// A queued request that never reached the server is never lost: between attempts it is back in line, not
/// "being sent", so a process killed in the wait loses nothing. Three POSTs to a port where nothing listens,
/// the process SIGKILLed in its backoff, a server started on that port and the queue opened again by a new
/// process: each POST arrives once. On both stores.
@Suite struct UnsentWaitTests {
    /// A free loopback port, with nothing listening on it.
    static func deadPort(_ python: String) async throws -> Int {
        let probe = try await PipedChild.run([python, "-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
        return try #require(Int(probe.text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// A server on `port` that answers every POST 200 and tells each body on a line of its own.
    static let server = #"""
        import http.server, sys
        class Answer(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                sys.stderr.write("arrived " + body.decode() + "\n"); sys.stderr.flush()
                self.send_response(200); self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"ok")
            def log_message(self, *arguments): pass
        server = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Answer)
        sys.stderr.write("listening\n"); sys.stderr.flush()
        server.serve_forever()
        """#

    @Test(arguments: ["sqlite", "postgres"])
    func aRequestThatNeverLeftSurvivesADeathInItsBackoff(store: String) async throws {
        let python = try #require(Paths.executable("python3"))
        let port = try await Self.deadPort(python)
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
        var seen = "none"
        for _ in 0..<2_000 where seen != "pending 1" { seen = (try? await firstRow()) ?? "unreadable" }
        #expect(seen == "pending 1", "the first request is back in line in its backoff, not being sent")
        kill(first.process.pid, SIGKILL)
        _ = await first.outcome()

        let server = try PipedChild([python, "-c", Self.server, String(port)])
        defer { kill(server.process.pid, SIGKILL) }
        var arrivals: [String] = []
        var lines = server.errorLines.makeAsyncIterator()
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
