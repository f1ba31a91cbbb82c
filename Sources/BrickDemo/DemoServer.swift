import BrickSystem
import BrickTransport
import LoopbackServer

/// The demo's own server on a free loopback port: the embedded default, so that no internet is needed.
/// Started on first use.
let demoServer: LoopbackServer? = try? LoopbackServer(handler: DemoRoutes.handle)

/// `http://127.0.0.1:<port><path>` of the demo server.
func demoURL(_ path: String) -> String { (demoServer?.baseURL ?? "http://127.0.0.1:1") + path }

/// How many times `/flaky/N` has been called.
private let flakyCalls = Locked(0)
/// How many times `/catalog` has been served (a cache hit does not count).
private let catalogCalls = Locked(0)

/// A tiny API: users, an echo, status codes, an endpoint that is busy the first N times, a cacheable catalog
/// and files to download.
enum DemoRoutes {
    static func handle(_ request: ServerRequest) -> ServerResponse {
        let parts = request.path.split(separator: "/").map(String.init)
        switch (request.method, parts.first, parts.count) {
        case ("GET", "users", 2):
            guard let id = Int(parts[1]) else { return .json(#"{"error":"bad id"}"#, status: 400) }
            return .json(#"{"id":\#(id),"name":"User \#(id)","email":"user\#(id)@example.com"}"#)
        case ("GET", "get", 1):
            return .json(#"{"args":\#(pairsJSON(request.query)),"user_agent":"\#(request.header("User-Agent") ?? "")"}"#)
        case ("POST", "users", 1):
            let form = pairsJSON(String(decoding: request.body, as: UTF8.self))
            return .json(#"{"created":true,"form":\#(form)}"#, status: 201)
        case ("GET", "flaky", 2):
            let call = flakyCalls.withLock { calls in
                calls += 1
                return calls
            }
            guard call > Int(parts[1]) ?? 0 else {
                return ServerResponse(status: 503, headers: [("Retry-After", "0")], body: Array("busy, call \(call)\n".utf8))
            }
            return .text("served on call \(call)")
        case ("GET", "catalog", 1):
            let call = catalogCalls.withLock { calls in
                calls += 1
                return calls
            }
            return ServerResponse(
                status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "max-age=60"), ("ETag", "\"c1\"")],
                body: Array(#"{"items":["brick","mortar","trowel"],"served":\#(call)}"#.utf8))
        case ("GET", "file", 2):
            let size = min(Int(parts[1]) ?? 0, 64 << 20)
            return ServerResponse(
                status: 200, headers: [("ETag", "\"f\(size)\""), ("Content-Type", "application/octet-stream")],
                body: (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        case (_, "status", 2):
            return .text("status \(parts[1])\n", status: Int(parts[1]) ?? 400)
        default:
            return .text("not found\n", status: 404)
        }
    }

    /// `a=1&b=x%20y` as a JSON object of strings (values kept percent-encoded, quotes escaped).
    private static func pairsJSON(_ encoded: String) -> String {
        let members = encoded.split(separator: "&").map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).percentDecoded.replacingOccurrences(of: "\"", with: "\\\"") }
            return "\"\(parts[0])\":\"\(parts.count > 1 ? parts[1] : "")\""
        }
        return "{" + members.joined(separator: ",") + "}"
    }
}

extension String {
    /// The text with `%XX` escapes decoded (invalid escapes are kept as they are).
    fileprivate var percentDecoded: String {
        var bytes: [UInt8] = []
        var rest = utf8[...]
        while let byte = rest.first {
            if byte == UInt8(ascii: "%"), rest.count >= 3,
                let value = UInt8(String(decoding: rest.dropFirst().prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(3)
            } else {
                bytes.append(byte)
                rest = rest.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    fileprivate func replacingOccurrences(of target: Character, with replacement: String) -> String {
        map { $0 == target ? replacement : String($0) }.joined()
    }
}
