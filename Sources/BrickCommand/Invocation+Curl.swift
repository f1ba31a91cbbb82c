import BrickRequest
import FoundationEssentials

extension Invocation {
    /// curl's options whose meaning is the same here: a header, the method, a HEAD, the body to a file,
    /// following (already the default), quiet. `value` reads the option's value.
    mutating func readCurls(_ option: String, _ value: () throws(UsageError) -> String) throws(UsageError) {
        switch option {
        case "-H", "--header": try header(try value())
        case "-X", "--request": methodOption = try Self.method(try value())
        case "-I", "--head":
            methodOption = .head
            if shown == nil { shown = try Shown(parsing: "h") }  // the answer's head, as curl -I prints it
        case "-o", "--output": download = try value()
        case "-s", "--silent": quiet = true
        default: follows = true  // -L, --location, --follow
        }
    }

    /// `--completion`'s shell.
    static func shell(_ name: String) throws(UsageError) -> Completion.Shell {
        guard let shell = Completion.Shell(rawValue: name) else { throw UsageError("--completion takes bash, zsh or fish, not \(name)") }
        return shell
    }

    /// curl's `-H "Name: value"`: a field of the request (the spaces after the colon are not the value's).
    private mutating func header(_ line: String) throws(UsageError) {
        guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
            throw UsageError("-H takes 'Name: value', not \(line) (or give a header as an item: brick URL 'Name:value')")
        }
        let name = String(line[..<colon].trimmingWhitespace)
        let value = String(line[line.index(after: colon)...].trimmingWhitespace)
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw UsageError("-H: \(name.debugDescription) is not a field name") }
        headers.add(name: name, value: value)
    }

    /// `-X`'s method: a token, in capitals as sent.
    private static func method(_ text: String) throws(UsageError) -> HTTPMethod {
        guard looksLikeMethod(text) else { throw UsageError("-X takes a method (GET, POST, PUT …), not \(text)") }
        return HTTPMethod(text.uppercased())
    }
}
