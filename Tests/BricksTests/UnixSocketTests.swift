import BrickRequest
import BrickTesting
import Testing
import TestServers

/// A GET through nginx's Unix domain socket, the host in the URL naming the server only.
final class SocketCall: Component, GETRequestType, UnixSocketType, StringResponseType, SoftAutoRetryType {
    let session: Session
    let URLString: String
    let unixSocketPath: String
    init(_ url: String, socket: String, session: Session) {
        self.session = session
        URLString = url
        unixSocketPath = socket
        super.init()
    }
}

/// Requests to a local daemon over a Unix domain socket (`UnixSocketType`, `TransportOptions.unixSocketPath`).
@Suite struct UnixSocketTests {
    @Test func theBrickReachesTheSocketAndTheURLsHostOnlyNamesTheServer() async throws {
        let server = try Nginx.shared.get()
        let session = Session()
        // `daemon.invalid` resolves nowhere: only the socket can answer.
        let body = try await SocketCall("http://daemon.invalid/small", socket: server.socketPath, session: session).response()
        #expect(body == String(repeating: "x", count: 100))
        let host = try await SocketCall("http://daemon.invalid/host", socket: server.socketPath, session: session).response()
        #expect(host == "daemon.invalid")
    }

    @Test func aSessionOptionSendsEveryRequestThroughTheSocketOnOneConnection() async throws {
        let server = try Nginx.shared.get()
        var configuration = Session.Configuration(baseURL: "http://docker.invalid")
        configuration.transportOptions.unixSocketPath = server.socketPath
        let session = Session(configuration: configuration)
        let before = server.accessLog().count
        for _ in 0..<3 {
            let body = try await session.send(.get, "/small?one-connection")
            #expect(body.body.count == 100)
        }
        let lines = server.accessLog().dropFirst(before).filter { $0.hasSuffix(" /small?one-connection") }
        #expect(lines.count == 3)
        #expect(Set(lines.map { $0.split(separator: " ")[0] }).count == 1, "one kept-alive connection: \(lines)")
    }

    @Test func noNetworkRouteIsWaitedForAndAMissingSocketIsARefusal() async throws {
        let server = try Nginx.shared.get()
        // Every host unreachable: a request over TCP would wait for the network; one over a socket goes at once.
        let reachability = ManualReachability(.unreachable)
        var configuration = Session.Configuration()
        configuration.reachability = reachability
        let session = Session(configuration: configuration)
        let body = try await SocketCall("http://daemon.invalid/small", socket: server.socketPath, session: session).response()
        #expect(body.count == 100)
        #expect(reachability.statusQueries == 0)

        var options = TransportOptions()
        options.unixSocketPath = server.directory + "/no-such.sock"
        let missing = await session.dataResponse(for: TransportRequest(url: "http://daemon.invalid/small", options: options))
        #expect(missing.error?.transportError?.kind == .connectionRefused)
        #expect(missing.error?.requestMayHaveArrived == false)
    }
}
