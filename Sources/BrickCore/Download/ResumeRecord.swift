import FoundationEssentials
import Glibc

/// What a download keeps beside its partial file so that it can resume, in this process or the next:
/// the URL, the validator that proves the resource unchanged, and the complete length when known.
struct ResumeRecord: Codable, Equatable, Sendable {
    /// The URL the bytes came from; a record for another URL is not resumed.
    var url: String
    /// A strong `ETag` or, failing that, the `Last-Modified` date: sent as `If-Range` on resume.
    var validator: String
    /// The complete length of the resource, when the server said.
    var length: Int64?

    /// The validator of `head` usable in `If-Range` (RFC 9110 §13.1.5): a strong entity tag, else the
    /// `Last-Modified` date; `nil` when the response has neither (then a download cannot resume).
    static func validator(of head: ResponseHead) -> String? {
        if let tag = head.headers["ETag"]?.trimmingWhitespace, tag.hasPrefix("\""), tag.count >= 2 { return tag }
        if let date = head.headers["Last-Modified"]?.trimmingWhitespace, HTTPDate.parse(date) != nil { return date }
        return nil
    }

    /// Reads the record at `path`; `nil` when there is none or it cannot be read.
    static func read(from path: String) -> ResumeRecord? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(ResumeRecord.self, from: data)
    }

    /// Writes the record to `path` through a temporary file and a rename, so that a reader (or a crash)
    /// never sees half of it.
    func write(to path: String) throws(FileError) {
        let temporary = path + ".tmp"
        guard let data = try? JSONEncoder().encode(self),
            FileManager.default.createFile(atPath: temporary, contents: data)
        else { throw FileError(.record, path: path, osErrno: errno) }
        guard rename(temporary, path) == 0 else { throw FileError(.record, path: path, osErrno: errno) }
    }
}
