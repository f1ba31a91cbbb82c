import BrickRequest
import FoundationEssentials

/// What a command line sends as the body: nothing, a JSON document (`--json`, or the fields `name=Ada`
/// and `age:=36` as one object, in their order), or the fields as a form (`--form`).
enum CommandBody: Equatable, Sendable {
    case none
    /// The document's text, sent exactly as written (numbers keep every digit).
    case json(String)
    case form([FormField])

    struct FormField: Equatable, Sendable {
        let name: String
        let value: String
    }

    init(json: String?, fields: [RequestItem], form: Bool) throws(UsageError) {
        if let json {
            guard fields.isEmpty else { throw UsageError("--json and body fields (name=value) do not go together") }
            let text = try Self.contents(of: json)
            try Self.check(text, what: "--json")
            self = .json(text)
        } else if fields.isEmpty {
            self = .none
        } else if form {
            self = .form(try fields.map { item throws(UsageError) -> FormField in
                guard case .field(let name, let text) = item else { throw UsageError("--form sends text fields only (name=value)") }
                return FormField(name: name, value: text)
            })
        } else {
            var members: [String] = []
            for item in fields {
                switch item {
                case .field(let name, let text): members.append("\(QuotedText.json(name)): \(QuotedText.json(text))")
                case .jsonField(let name, let json):
                    try Self.check(json, what: name + ":=")
                    members.append("\(QuotedText.json(name)): \(json)")
                default: continue
                }
            }
            self = .json("{" + members.joined(separator: ", ") + "}")
        }
    }

    /// `@path` is the contents of the file at path; anything else is itself.
    private static func contents(of argument: String) throws(UsageError) -> String {
        guard argument.hasPrefix("@") else { return argument }
        let path = String(argument.dropFirst())
        guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("cannot read \(path)") }
        return String(decoding: data, as: UTF8.self)
    }

    /// Throws unless `text` is one JSON document.
    private static func check(_ text: String, what: String) throws(UsageError) {
        do { _ = try JSON.parse(Data(text.utf8)) } catch { throw UsageError("\(what): not JSON (\(error))") }
    }
}
