import BrickCurl
import Dispatch
import LoopbackServer
import Synchronization
import TestServers
import Testing

@Suite struct ConcurrencyAndReuseTests {
    /// The server holds every request until `count` are open at once, so the test passes only if the client
    /// really has them all in flight together (and fails by timeout otherwise).
    @Test func twoHundredFiftyRequestsInFlightAtOnce() async throws {
        let count = 250
        let arrived = Atomic<Int>(0)
        let gate = DispatchSemaphore(value: 0)
        let server = try LoopbackServer { _ in
            if arrived.add(1, ordering: .sequentiallyConsistent).newValue == count {
                for _ in 0..<count { gate.signal() }
            }
            return gate.wait(timeout: .now() + 20) == .success ? .text("released") : .text("alone", status: 504)
        }
        defer { server.stop() }
        var configuration = CurlTransport.Configuration()
        configuration.maxConnectionsPerHost = count
        configuration.maxConnections = count
        let wide = try #require(CurlTransport(configuration: configuration))
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                group.addTask { try await send(server.baseURL + "/\(index)", through: wide).head.status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == count)
        #expect(statuses.allSatisfy { $0 == 200 })
    }

    @Test func thePerHostLimitQueuesTheRest() async throws {
        let open = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
        let server = try LoopbackServer { _ in
            let now = open.add(1, ordering: .sequentiallyConsistent).newValue
            peak.max(now, ordering: .sequentiallyConsistent)
            defer { open.subtract(1, ordering: .sequentiallyConsistent) }
            return .text("ok")
        }
        defer { server.stop() }
        var configuration = CurlTransport.Configuration()
        configuration.maxConnectionsPerHost = 2
        let narrow = try #require(CurlTransport(configuration: configuration))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 { group.addTask { _ = try await send(server.baseURL + "/", through: narrow) } }
            try await group.waitForAll()
        }
        #expect(peak.load(ordering: .sequentiallyConsistent) <= 2)
    }

    @Test func sequentialRequestsReuseOneConnection() async throws {
        let server = try nginx()
        let own = try #require(CurlTransport())
        let marker = "/small?reuse-\(UInt64.random(in: 0...UInt64.max))"
        var reused: [Bool] = []
        for _ in 0..<10 { reused.append(try await send(server.url(marker), through: own).metrics.reusedConnection) }
        #expect(reused == [false] + Array(repeating: true, count: 9))
        let connections = Set(server.accessLog().filter { $0.contains(marker) }.map { $0.split(separator: " ")[0] })
        #expect(connections.count == 1)
    }

    @Test func http2MultiplexesConcurrentRequestsOverOneTLSConnection() async throws {
        let server = try nginx()
        var trusting = TransportOptions()
        trusting.caBundlePath = server.certificatePath
        let options = trusting
        let own = try #require(CurlTransport())
        let marker = "/small?h2-\(UInt64.random(in: 0...UInt64.max))"
        let versions = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask { try await send(server.tlsURL(marker), options: options, through: own).head.version }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(versions == Array(repeating: "2", count: 20))
        let lines = server.accessLog().filter { $0.contains(marker) }
        #expect(lines.count == 20)
        #expect(lines.allSatisfy { $0.contains("HTTP/2.0") })
        #expect(Set(lines.map { $0.split(separator: " ")[0] }).count == 1)
    }
}
