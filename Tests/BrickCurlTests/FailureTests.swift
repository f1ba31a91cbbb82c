import BrickCurl
import Glibc
import LoopbackServer
import Synchronization
import TestServers
import Testing

@Suite struct FailureTests {
    @Test func connectionRefused() async throws {
        let (held, port) = try Sockets.refusingPort()
        defer { close(held) }
        let error = try await failure("http://127.0.0.1:\(port)/")
        #expect(error.kind == .connectionRefused)
        #expect(error.curlCode == 7)
        #expect(error.osErrno == 111)
    }

    @Test func cannotResolveAnInvalidHost() async throws {
        let error = try await failure("http://brickrequest-test.invalid/")
        #expect(error.kind == .cannotResolveHost)
        #expect(error.curlCode == 6)
    }

    @Test func connectTimeout() async throws {
        let blackhole = try Sockets.blackhole()
        defer { blackhole.close() }
        var options = TransportOptions()
        options.connectTimeout = .milliseconds(300)
        let error = try await failure("http://127.0.0.1:\(blackhole.port)/", options: options)
        #expect(error.kind == .connectTimeout)
        #expect(error.curlCode == 28)
    }

    /// Against the fault server's `/hang` (connected at once: the kernel completes the handshake), so that
    /// the limit is met by the request, never by a connect slowed by a busy server's full accept queue.
    /// A machine so loaded that the engine had not even connected within the limit (seen once under
    /// AddressSanitizer) gets `connectTimeout`, which is right then: the request never left. So that kind
    /// passes only when the server saw no request.
    @Test func wholeRequestTimeout() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var options = TransportOptions()
        options.timeout = .milliseconds(500)
        let error = try await failure(server.baseURL + "/hang?key=whole", options: options)
        #expect(error.kind == .timedOut || (error.kind == .connectTimeout && server.count("whole") == 0), "\(error)")
        #expect(error.curlCode == 28)
    }

    @Test func stalledTransferEndsByLowSpeedLimit() async throws {
        var options = TransportOptions()
        options.lowSpeedLimit = 1000
        options.lowSpeedTime = .seconds(1)
        let error = try await failure(try httpbin().url("/drip?numbytes=20&duration=20&delay=0"), options: options)
        #expect(error.kind == .stalled)
    }

    @Test func refusesABodyOverTheCap() async throws {
        var options = TransportOptions()
        options.maxBodySize = 1000
        let error = try await failure(try httpbin().url("/bytes/5000"), options: options)
        #expect(error.kind == .responseTooLarge)
        #expect(error.message.contains("1000 bytes"))  // the cap it hit, not libcurl's "maximum file size exceeded"
        let chunked = try await failure(try httpbin().url("/stream-bytes/5000?chunk_size=100"), options: options)
        #expect(chunked.kind == .responseTooLarge)
        #expect(chunked.message.contains("1000 bytes"))
    }

    @Test(arguments: [
        ("X-Evil", "a\r\nInjected: yes"), ("X-Evil", "a\nb"), ("X-Evil", "a\rb"), ("X-Evil\r\nInjected", "yes"),
        ("Bad Name", "x"), ("", "x"), ("X-Nul", "a\u{0}b"),
    ])
    func refusesHeadersThatCouldInjectBeforeSendingAnything(name: String, value: String) async throws {
        var headers = HTTPHeaders()
        headers.add(name: name, value: value)
        let requests = Atomic<Int>(0)
        let server = try LoopbackServer { _ in
            requests.add(1, ordering: .relaxed)
            return .text("ok")
        }
        defer { server.stop() }
        let error = try await failure(server.baseURL + "/", headers: headers)
        #expect(error.kind == .invalidHeader)
        let after = try await send(server.baseURL + "/")
        #expect(after.head.status == 200)
        #expect(requests.load(ordering: .relaxed) == 1)
    }

    @Test func refusesAnUntrustedCertificateAndNamesTheWayOut() async throws {
        let error = try await failure(try nginx().tlsURL("/small"))
        #expect(error.kind == .tlsFailure)
        #expect(error.message.contains("TransportOptions.caBundlePath") && error.message.contains("brick --cacert"), "\(error.message)")
        #expect(error.message.contains("pinnedPublicKeys"))
    }

    @Test func refusesACertificateForAnotherName() async throws {
        var options = TransportOptions()
        options.caBundlePath = try nginx().certificatePath
        let error = try await failure("https://127.0.0.2:\(try nginx().tlsPort)/small", options: options)
        #expect([.tlsFailure, .connectionRefused].contains(error.kind))
    }

    @Test func anUnreadableCABundleIsATLSFailure() async throws {
        var options = TransportOptions()
        options.caBundlePath = "/nonexistent/ca.pem"
        let error = try await failure(try nginx().tlsURL("/small"), options: options)
        #expect(error.kind == .tlsFailure)
        #expect(error.message.contains("TransportOptions.caBundlePath"), "\(error.message)")
    }
}
