import FoundationEssentials

/// One request item of a command line, after the URL: `name==Ada` (a query parameter), `X-Token:abc` (a
/// header), `name=Ada` (a body field, a JSON string or a form field), `age:=36` (a body field given as
/// JSON), `bio=@bio.txt` and `tags:=@tags.json` (the same, read from a file), and `photo@me.jpg` (a file
/// uploaded as a part of a `multipart/form-data` body). The separator that comes first in the item decides;
/// `==`, `:=`, `=@` and `:=@` win over `=`, `:` and `@` at the same place, so `a=b:c` is the field `a` with the
/// text `b:c`, and `mail=ada@example.com` a field, not a file.
enum RequestItem: Equatable, Sendable {
    case query(name: String, value: String)
    case header(name: String, value: String)
    case field(name: String, text: String)
    case jsonField(name: String, json: String)
    case file(name: String, path: String)

    /// Reads one item, or throws when it has no separator or no name, or names a file that cannot be read.
    init(parsing item: String) throws(UsageError) {
        let utf8 = Array(item.utf8)
        let separators: Set<UInt8> = [UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@")]
        for (index, byte) in utf8.enumerated() where separators.contains(byte) {
            let rest = utf8[(index + 1)...]
            let double = rest.first == UInt8(ascii: "=") && byte != UInt8(ascii: "@")
            let afterSeparator = rest.dropFirst(double ? 1 : 0)
            let fromFile = byte != UInt8(ascii: "@") && afterSeparator.first == UInt8(ascii: "@") && !(byte == UInt8(ascii: "=") && double)
            let name = String(decoding: utf8[..<index], as: UTF8.self)
            let value = String(decoding: afterSeparator.dropFirst(fromFile ? 1 : 0), as: UTF8.self)
            guard !name.isEmpty else { throw UsageError("\(item): an item needs a name before its separator") }
            switch (byte, double) {
            case (UInt8(ascii: "@"), _): self = .file(name: name, path: value)
            case (UInt8(ascii: "="), true): self = .query(name: name, value: value)
            case (UInt8(ascii: "="), false): self = .field(name: name, text: fromFile ? try Self.contents(of: value) : value)
            case (_, true): self = .jsonField(name: name, json: fromFile ? try Self.contents(of: value) : value)
            default:
                // `Name:@file`: the value read from a file, without the line end that closes it.
                let text = fromFile ? String(try Self.contents(of: value).trimmingSuffix("\n").trimmingSuffix("\r")) : value
                self = .header(name: name, value: text.drop { $0 == " " }.description)
            }
            return
        }
        throw UsageError("\(item): not a request item (name==query, Header:value, field=text, field:=json, field=@file, field@file)")
    }

    /// The text of the file at `path`.
    static func contents(of path: String) throws(UsageError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("cannot read \(path)") }
        return String(decoding: data, as: UTF8.self)
    }
}

extension String {
    /// The text without one `suffix` at its end.
    fileprivate func trimmingSuffix(_ suffix: String) -> Substring { hasSuffix(suffix) ? dropLast(suffix.count) : self[...] }
}

extension Substring {
    fileprivate func trimmingSuffix(_ suffix: String) -> Substring { hasSuffix(suffix) ? dropLast(suffix.count) : self }
}
