// autobahn-client BASE_URL AGENT: the library as an Autobahn|Testsuite echo client. It asks the server how
// many cases it has (`/getCaseCount`), runs each as an echo client on a connection of its own
// (`/runCase?case=N&agent=AGENT`: every text or binary message sent back as it came), then asks for the
// reports (`/updateReports?agent=AGENT`). Any server that speaks Autobahn's client protocol can drive it.
import BrickRequest
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: autobahn-client BASE_URL AGENT")
    exit(2)
}
let base = arguments[1].hasSuffix("/") ? String(arguments[1].dropLast()) : arguments[1]
let agent = arguments[2]
let session = Session()
var options = WebSocketOptions()
// Autobahn's largest messages (9.x) are 16 MiB; the limits leave room above them.
options.maxFrameSize = 64 * 1024 * 1024
options.maxMessageSize = 64 * 1024 * 1024
options.closeTimeout = .seconds(3)

func say(_ line: String) { print(line) }

func echo(_ url: String) async {
    do {
        let socket = try await session.webSocket(url, options: options)
        do {
            for try await message in socket.messages {
                switch message {
                case .text(let text): try await socket.send(text: text)
                case .binary(let bytes): try await socket.send(binary: bytes)
                }
            }
        } catch {
            say("  \(error)")
        }
        await socket.close()
    } catch {
        say("  \(error)")
    }
}

let count: Int
do {
    let socket = try await session.webSocket("\(base)/getCaseCount", options: options)
    var counted: Int?
    for try await message in socket.messages {
        if case .text(let text) = message { counted = Int(text) }
        break
    }
    await socket.close()
    count = counted ?? -1
} catch {
    count = -1
    print("autobahn-client: \(error)")
}
guard count >= 0 else {
    print("autobahn-client: no case count from \(base)/getCaseCount")
    exit(1)
}
say("autobahn-client: \(count) cases, agent \(agent)")
for index in stride(from: 1, through: count, by: 1) {
    say("case \(index)/\(count)")
    await echo("\(base)/runCase?case=\(index)&agent=\(agent)")
}
await echo("\(base)/updateReports?agent=\(agent)")
say("autobahn-client: reports updated")
