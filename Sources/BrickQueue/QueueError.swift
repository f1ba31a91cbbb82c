public import BrickCore

/// Why a request could not be queued, or the queue could not be opened. The library may add cases in a
/// minor version: switch with a `default`.
public enum QueueError: Error, Sendable, CustomStringConvertible {
    /// The database could not be opened, read or written (the database's message).
    case database(String)
    /// A shared database refused the connection as configured: a malformed connection string, credentials
    /// it does not accept, a database or role that does not exist. Trying again will not help.
    case connection(String)
    /// A shared database cannot be reached now (down, restarting, no route): nothing was stored; trying
    /// again later may work.
    case unreachable(String)
    /// The database holds the queue's tables in a layout this version does not know (written by a newer
    /// version), or something else under the queue's schema name: nothing was changed.
    case schema(String)
    /// The request could not be built (its body did not encode).
    case request(BrickError)
    /// The body cannot outlive the process: a stream (data and files can).
    case unstorableBody
    /// The queue holds as many requests, or as many bytes, as its ``DeliveryQueue/Limits`` allow.
    case full(String)

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .database(let message): "the queue's database failed: \(message)"
        case .connection(let message): "the queue's database refused the connection: \(message)"
        case .unreachable(let message): "the queue's database cannot be reached: \(message)"
        case .schema(let message): "the queue's database has another layout: \(message)"
        case .request(let error): "the request could not be built: \(error)"
        case .unstorableBody: "a streamed body cannot be queued: give data or a file"
        case .full(let why): "the queue is full: \(why)"
        }
    }
}
