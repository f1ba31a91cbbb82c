/// One request item of a command line, after the URL: `name==Ada` (a query parameter), `X-Token:abc` (a
/// header), `name=Ada` (a body field, a JSON string or a form field) or `age:=36` (a body field given as
/// JSON). The separator that comes first in the item decides; `==` and `:=` win over `=` and `:` at the
/// same place, so `a=b:c` is the field `a` with the text `b:c`.
enum RequestItem: Equatable, Sendable {
    case query(name: String, value: String)
    case header(name: String, value: String)
    case field(name: String, text: String)
    case jsonField(name: String, json: String)

    /// Reads one item, or throws when it has no separator or no name.
    init(parsing item: String) throws(UsageError) {
        let utf8 = Array(item.utf8)
        for (index, byte) in utf8.enumerated() where byte == UInt8(ascii: "=") || byte == UInt8(ascii: ":") {
            let next = index + 1 < utf8.count ? utf8[index + 1] : nil
            let double = next == UInt8(ascii: "=")
            let name = String(decoding: utf8[..<index], as: UTF8.self)
            let value = String(decoding: utf8[(index + (double ? 2 : 1))...], as: UTF8.self)
            guard !name.isEmpty else { throw UsageError("\(item): an item needs a name before its separator") }
            switch (byte == UInt8(ascii: "="), double) {
            case (true, true): self = .query(name: name, value: value)
            case (true, false): self = .field(name: name, text: value)
            case (false, true): self = .jsonField(name: name, json: value)
            case (false, false): self = .header(name: name, value: value.drop { $0 == " " }.description)
            }
            return
        }
        throw UsageError("\(item): not a request item (name==query, Header:value, field=text, field:=json)")
    }
}
