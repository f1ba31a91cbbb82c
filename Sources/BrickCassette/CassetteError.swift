/// Why a cassette could not be read, written or used. Each names the file, and where it applies the entry
/// (counted from 0, as `log.entries[N]`) and the field.
public struct CassetteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable {
        /// Replay was asked for and the file does not exist.
        case notFound
        /// The file could not be opened or read.
        case unreadable
        /// The file is larger than the cassette reads (its `maxFileSize`, 64 MiB by default).
        case tooLarge
        /// The file is not JSON.
        case notJSON
        /// A field the cassette needs is missing.
        case missingField
        /// A field holds a value of the wrong type, or one that cannot be right (a body whose base64 does not
        /// decode, a size that disagrees with the body).
        case invalidField
        /// The recording could not be written; nothing was left in its place.
        case cannotWrite
        /// `BRICK_RECORD` names no mode.
        case invalidMode
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// The cassette's path.
    public let path: String
    /// The entry concerned, when one is.
    public let entry: Int?
    /// The field concerned, as a path from the entry (`response.content.text`) or from the file.
    public let field: String?
    /// What is wrong, in words.
    public let message: String

    /// The error `kind` with the cassette at `path`, at `entry` and `field` when given, said in `message`.
    public init(_ kind: Kind, path: String, entry: Int? = nil, field: String? = nil, message: String) {
        self.kind = kind
        self.path = path
        self.entry = entry
        self.field = field
        self.message = message
    }

    public var description: String {
        var place = path
        if let entry { place += ", entry \(entry)" }
        if let field { place += ", field \(field)" }
        return "cassette \(place): \(message)"
    }
}
