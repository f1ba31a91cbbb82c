import FoundationEssentials
import BrickRequest
import BrickSystem

extension Invocation {
    /// `-a user:password` (Basic) or `-A bearer -a token`: the `Authorization` field, unless the command line
    /// names one itself.
    mutating func authorize(_ credentials: String, type: String, password: (String) -> String?) throws(UsageError) {
        guard headers["Authorization"] == nil else { return }
        switch type {
        case "basic":
            var pair = credentials
            if !credentials.contains(":") {
                guard let typed = password(credentials) else {
                    throw UsageError("-a takes user:password for basic authentication (no terminal to ask \(credentials)'s password on)")
                }
                pair = credentials + ":" + typed
            }
            headers["Authorization"] = "Basic " + Data(pair.utf8).base64EncodedString()
        case "bearer":
            guard !credentials.isEmpty else { throw UsageError("-a takes the token for bearer authentication") }
            headers["Authorization"] = "Bearer " + credentials
        default: throw UsageError("--auth-type takes basic or bearer, not \(type)")
        }
    }

    /// `-a`'s value: as given, or the first line of the file `@FILE` names, so that a password or token need
    /// not stand on the command line (where `ps` and the shell's history keep it).
    static func credentials(_ value: String) throws(UsageError) -> String {
        guard value.hasPrefix("@"), value.count > 1 else { return value }
        let path = String(value.dropFirst())
        guard case .success(let bytes) = FileDescriptor.readWhole(path, limit: 64 << 10, followingLinks: true) else {
            throw UsageError("-a @\(path): the file cannot be read (a regular file of at most 64 KiB)")
        }
        let line = bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
        guard !line.isEmpty else { throw UsageError("-a @\(path): the file's first line is empty") }
        return String(decoding: line, as: UTF8.self)
    }

    /// `--auth-env NAME`: the credentials held by the environment variable `NAME`.
    static func credentials(fromEnvironment name: String) throws(UsageError) -> String {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
            throw UsageError("--auth-env \(name): the environment has no \(name) (export it first; read -s keeps it out of the history)")
        }
        return value
    }
}
