import BrickRequest
import BrickSystem
import FoundationEssentials
import Glibc

/// `brick ws URL`: a WebSocket opened through the library, each line of standard input sent as a text
/// message and each message received written to standard output (a text one as a line, a binary one as its
/// bytes), until either side closes: standard input's end closes the connection with `1000`.
enum WebSocketCall {
    /// Runs the connection; the exit status: 0 after a close, 1 when it failed.
    static func run(_ invocation: Invocation, session: Session) async -> Int32 {
        let socket: WebSocket
        do { socket = try await CommandWebSocket(invocation, session: session).connect() } catch {
            Output.error("brick: \(error)\n")
            return 1
        }
        if !invocation.quiet {
            let named = socket.subprotocol.map { ", subprotocol \($0)" } ?? ""
            Output.error("connected to \(TransportRequest.forMessages(invocation.url))\(named): each line is sent, end of input closes\n")
        }
        let sender = Task {
            for await line in StandardInputLines.stream() {
                do throws(WebSocketError) { try await socket.send(text: line) } catch { return }
            }
            if !Task.isCancelled { await socket.closeAfterAnswers() }
        }
        // The messages end with the server's close (then nothing is left to send), or with ours after the
        // input's end (then its handshake is waited for).
        defer { sender.cancel() }
        do throws(WebSocketError) {
            for try await message in socket.messages {
                switch message {
                case .text(let text): Output.text(text + "\n")
                case .binary(let bytes): Output.body(bytes)
                }
            }
        } catch {
            Output.error("brick: \(error)\n")
            return 1
        }
        if let close = socket.peerClose, !invocation.quiet { Output.error("closed: \(close.code) \(close.reason)\n") }
        if socket.peerClose == nil { await sender.value }
        return 0
    }
}

/// The handshake a `brick ws` command line describes: its URL and query, its headers, its transport options.
final class CommandWebSocket: Component, WebSocketRequestType {
    let invocation: Invocation
    let session: Session

    init(_ invocation: Invocation, session: Session) {
        self.invocation = invocation
        self.session = session
        var query = ParameterBuilder()
        for (name, value) in invocation.query { query.add(TextParameter(value: value, name: name)) }
        super.init(parameterBuilder: query)
    }

    var URLString: String { invocation.url }
    var headers: HTTPHeaders { invocation.headers }
    var transportOptions: TransportOptions { invocation.transportOptions(from: session.configuration.transportOptions) }
}

/// Standard input's lines, read on a thread of their own (a read blocks; the tasks of the connection go on
/// meanwhile), without their line ends; the stream ends with the input.
enum StandardInputLines {
    static func stream() -> AsyncStream<String> {
        let (lines, sink) = AsyncStream.makeStream(of: String.self)
        let started = startDetachedThread(named: "brick-stdin") { _ in
            while let line = readLine(strippingNewline: true) { sink.yield(line) }
            sink.finish()
        }
        if started != 0 { sink.finish() }
        return lines
    }
}
