import BrickRequest
import FoundationEssentials

/// What a command line sends as the body: nothing, a JSON document (`--json`, or the fields `name=Ada`
/// and `age:=36` as one object, in their order), the fields as a form (`--form`), text fields and files as a
/// `multipart/form-data` body (when a file is uploaded, `photo@me.jpg`), or what standard input held.
enum CommandBody: Equatable, Sendable {
    case none
    /// The document's text, sent exactly as written (numbers keep every digit).
    case json(String)
    case form([FormField])
    /// Text fields and files (``RequestItem/file(name:path:)``), in their order.
    case multipart([RequestItem])
    /// Standard input's bytes, sent as they are.
    case raw(Data)

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
        } else if fields.contains(where: { if case .file = $0 { true } else { false } }) {
            for item in fields {
                if case .jsonField(let name, _) = item { throw UsageError("\(name):= is JSON, which a multipart body (a file upload) cannot carry") }
            }
            self = .multipart(fields)
        } else if form {
            // A JSON field goes into a form as its text (`age:=36` is age=36, a JSON string its characters), as HTTPie does.
            self = .form(try fields.map { item throws(UsageError) -> FormField in
                switch item {
                case .field(let name, let text): return FormField(name: name, value: text)
                case .jsonField(let name, let json):
                    try Self.check(json, what: name + ":=")
                    if case .string(let text)? = try? JSON.parse(Data(json.utf8)) { return FormField(name: name, value: text) }
                    let blank: Set<Character> = [" ", "\t", "\n", "\r"]
                    return FormField(name: name, value: String(json.drop { blank.contains($0) }.reversed().drop { blank.contains($0) }.reversed()))
                default: throw UsageError("--form sends fields only (name=value, name:=json)")
                }
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
        return try RequestItem.contents(of: String(argument.dropFirst()))
    }

    /// Throws unless `text` is one JSON document.
    private static func check(_ text: String, what: String) throws(UsageError) {
        do { _ = try JSON.parse(Data(text.utf8)) } catch { throw UsageError("\(what): not JSON (\(error))") }
    }
}
