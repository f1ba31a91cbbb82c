public import BrickCore

/// Why a request could not be queued, or the queue could not be opened.
public enum QueueError: Error, Sendable, CustomStringConvertible {
    /// The database could not be opened, read or written (SQLite's message).
    case database(String)
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
        case .request(let error): "the request could not be built: \(error)"
        case .unstorableBody: "a streamed body cannot be queued: give data or a file"
        case .full(let why): "the queue is full: \(why)"
        }
    }
}
