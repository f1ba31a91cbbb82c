/// Why a download's file could not be prepared, written or moved into place; found in ``BrickError/file(_:)``.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done to the file.
    public enum Operation: String, Sendable {
        /// Opening or creating the partial file.
        case open
        /// Another download holds the partial file (two downloads to one destination).
        case lock
        /// Writing received bytes.
        case write
        /// Saving the resume record beside the partial file.
        case record
        /// Moving the finished file to its destination.
        case move
    }

    /// What was being done.
    public let operation: Operation
    /// The file it was done to.
    public let path: String
    /// The OS error number (`errno`), 0 when none applies.
    public let osErrno: Int32

    /// Creates an error.
    public init(_ operation: Operation, path: String, osErrno: Int32) {
        self.operation = operation
        self.path = path
        self.osErrno = osErrno
    }

    public var description: String {
        "cannot \(operation.rawValue) \(path)" + (osErrno == 0 ? "" : " (errno \(osErrno))")
    }
}
