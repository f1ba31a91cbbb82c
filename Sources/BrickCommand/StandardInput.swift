import FoundationEssentials
import Glibc

/// Standard input as a request body: read only when it is a pipe or a file (`echo '{}' | brick …`,
/// `brick … < body.json`), never a terminal, `/dev/null` or a socket, so that a command typed at a prompt
/// never waits for input.
enum StandardInput {
    /// At most this many bytes are read (what does not fit is refused, not cut).
    static let limit = 1 << 30

    /// What a pipe or a file on standard input holds; `nil` for anything else.
    static func read() throws(UsageError) -> Data? {
        var info = stat()
        guard fstat(STDIN_FILENO, &info) == 0 else { return nil }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFIFO || kind == S_IFREG else { return nil }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            guard data.count + count <= limit else { throw UsageError("standard input holds more than 1 GiB; send a file with a request of your own") }
            data.append(contentsOf: buffer[..<count])
        }
        return data
    }
}
