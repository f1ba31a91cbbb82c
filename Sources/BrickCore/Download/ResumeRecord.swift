import FoundationEssentials

/// What a download keeps beside its partial file so that it can resume, in this process or the next:
/// the URL, the validator that proves the resource unchanged, and the complete length when known.
struct ResumeRecord: Codable, Equatable, Sendable {
    /// The URL the bytes came from; a record for another URL is not resumed.
    var url: String
    /// A strong `ETag` or, failing that, the `Last-Modified` date: sent as `If-Range` on resume.
    var validator: String
    /// The complete length of the resource, when the server said.
    var length: Int64?
    /// What the server's `Accept-Ranges` said: `true` for `bytes`, `false` for `none`, `nil` when it said
    /// nothing (a record written before this field has none either).
    var ranges: Bool?

    init(url: String, validator: String, length: Int64?, ranges: Bool? = nil) {
        self.url = url
        self.validator = validator
        self.length = length
        self.ranges = ranges
    }

    /// What `head`'s `Accept-Ranges` says (``ranges``).
    static func ranges(of head: ResponseHead) -> Bool? {
        guard let value = head.headers["Accept-Ranges"]?.trimmingWhitespace.lowercased() else { return nil }
        if value == "none" { return false }
        return value.split(separator: ",").contains { $0.trimmingWhitespace == "bytes" } ? true : nil
    }

    /// The validator of `head` usable in `If-Range` (RFC 9110 §13.1.5): a strong entity tag, else the
    /// `Last-Modified` date; `nil` when the response has neither (then a download cannot resume).
    static func validator(of head: ResponseHead) -> String? {
        if let tag = head.headers["ETag"]?.trimmingWhitespace, tag.hasPrefix("\""), tag.count >= 2 { return String(tag) }
        if let date = head.headers["Last-Modified"].map({ String($0.trimmingWhitespace) }), HTTPDate.parse(date) != nil {
            return date
        }
        return nil
    }

    /// Reads the record at `path`; `nil` when there is none or it cannot be read.
    static func read(from path: String) -> ResumeRecord? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(ResumeRecord.self, from: data)
    }

    /// Writes the record to `path` atomically (``writeAtomically(_:to:)``).
    func write(to path: String) throws(FileError) {
        guard let data = try? JSONEncoder().encode(self) else { throw FileError(.record, path: path, osErrno: 0) }
        if let failure = writeAtomically(data, to: path) { throw FileError(.record, path: path, osErrno: failure) }
    }
}
