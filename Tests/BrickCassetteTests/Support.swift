import BrickCassette
import BrickRequest
import Foundation
import TestServers

/// One call of any method, with the bricks' defaults but for what a test sets; its session is the scope's
/// (`Session.current`, as the session bricks have it) or `fallback`.
final class Call: Component, RequestType, RawBodyType, DataResponseType {
    let method: HTTPMethod
    let URLString: String
    let fallback: Session
    let headers: HTTPHeaders
    let rawBody: RequestBody
    /// The body's bytes, to send the same call again.
    let rawBodyData: Data
    let rawBodyContentType: String
    let autoRetryConfiguration: AutoRetryConfiguration

    var session: Session { Session.current ?? fallback }

    init(
        _ url: String, method: HTTPMethod = .get, session: Session, headers: HTTPHeaders = [:], body: Data = Data(),
        contentType: String = "application/json", retry: AutoRetryConfiguration = .soft
    ) {
        self.method = method
        URLString = url
        fallback = session
        self.headers = headers
        rawBody = .data(body)
        rawBodyData = body
        rawBodyContentType = contentType
        autoRetryConfiguration = retry
        super.init()
    }
}

/// A fresh path for a cassette in a scratch directory of its own.
func scratchCassette(_ name: String) throws -> String {
    try Paths.scratchDirectory("cassette") + "/" + name
}

/// What a call got: status and body (or the error's words), to compare live and replayed answers.
struct Answer: Equatable, CustomStringConvertible {
    let status: Int
    let body: Data

    init(_ response: DataResponse<Data>) {
        status = response.response?.head.status ?? 0
        body = response.response?.body ?? Data()
    }

    var description: String { "\(status) \(body.count) bytes" }
}

/// The project venv's Python, running a script to its end.
enum Python {
    /// Runs `script` with `arguments`; its standard output, or an error with its standard error.
    static func run(script: String, arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.venv + "/bin/python3")
        process.arguments = [script] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problems = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestServerError("\(script) failed: " + String(decoding: problems, as: UTF8.self))
        }
        return data
    }
}
