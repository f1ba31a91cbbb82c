// ws-bench URL COUNT SIZE: COUNT sequential echo round trips of SIZE-byte binary messages against the echo
// server at URL, through the library (no compression), then the referee's line:
//   RESULT client=brick scenario=ws-echo-SIZE n=COUNT bytes=… wall_s=… cpu_s=… maxrss_kb=… errors=0
// `make ws-bench` runs it beside the same through Python's websockets client (a benchmark, not a test).
import BenchSupport
import BrickRequest
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[2]), let size = Int(arguments[3]), count > 0, size >= 0 else {
    print("usage: ws-bench URL COUNT SIZE")
    exit(2)
}
var options = WebSocketOptions()
options.compression = false
options.maxMessageSize = max(options.maxMessageSize, size)
options.maxFrameSize = max(options.maxFrameSize, size)
let socket = try await Session().webSocket(arguments[1], options: options)
/// Sends `count` messages of `size` bytes one after the other, each echo awaited; the wall time they took.
func roundTrips(on socket: WebSocket, count: Int, size: Int) async throws -> Duration {
    let payload = Data(repeating: 0x61, count: size)
    var messages = socket.messages.makeAsyncIterator()
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<count {
        try await socket.send(binary: payload)
        guard case .binary(let echoed)? = try await messages.next(), echoed.count == size else {
            print("ws-bench: the echo did not come back whole")
            exit(1)
        }
    }
    return clock.now - start
}

let cpuStart = cpuSeconds().seconds
let wall = try await roundTrips(on: socket, count: count, size: size)
let (cpuEnd, maxRSS) = cpuSeconds()
await socket.close()
printResult(
    client: "brick", scenario: "ws-echo-\(size)", count: count, bytes: Int64(count) * Int64(size) * 2, wall: wall, cpu: cpuEnd - cpuStart,
    maxRSS: maxRSS, errors: 0)
