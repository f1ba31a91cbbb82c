import BrickRequest

/// `transfer-probe websocket-big URL compressed|plain`: a WebSocket with the default limits (16 MiB a
/// message and a frame) whose server sends one message far past them, read to its end: whether it failed
/// as too big, and the process's peak memory.
func probeBigWebSocketMessage(_ url: String, compressed: Bool, baseline: Int) async -> Never {
    var options = WebSocketOptions()
    options.compression = compressed
    let socket: WebSocket
    do { socket = try await Session.shared.webSocket(url, options: options) } catch { fail("\(error)") }
    var received = 0
    do throws(WebSocketError) {
        for try await _ in socket.messages { received += 1 }
        report(["tooBig": "false", "received": "\(received)", "baselineKiB": "\(baseline)", "peakKiB": "\(memoryKiB("VmHWM"))"])
    } catch {
        report(["tooBig": "\(error.kind == .tooBig)", "received": "\(received)", "baselineKiB": "\(baseline)", "peakKiB": "\(memoryKiB("VmHWM"))"])
    }
}
