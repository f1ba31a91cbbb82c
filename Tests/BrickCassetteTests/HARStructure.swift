import Foundation

/// The HAR 1.2 structure, checked from the specification's field lists: every required field present with
/// its type, and the optional ones the right type when present. Returns the problems, by path.
enum HARStructure {
    enum Kind { case string, number, integer, object, array, bool }

    /// `(name, kind, required)` per object of the format.
    static let log: [(String, Kind, Bool)] = [("version", .string, true), ("creator", .object, true), ("entries", .array, true), ("pages", .array, false), ("comment", .string, false)]
    static let creator: [(String, Kind, Bool)] = [("name", .string, true), ("version", .string, true), ("comment", .string, false)]
    static let entry: [(String, Kind, Bool)] = [
        ("pageref", .string, false), ("startedDateTime", .string, true), ("time", .number, true), ("request", .object, true),
        ("response", .object, true), ("cache", .object, true), ("timings", .object, true), ("serverIPAddress", .string, false),
        ("connection", .string, false), ("comment", .string, false),
    ]
    static let request: [(String, Kind, Bool)] = [
        ("method", .string, true), ("url", .string, true), ("httpVersion", .string, true), ("cookies", .array, true),
        ("headers", .array, true), ("queryString", .array, true), ("postData", .object, false), ("headersSize", .integer, true),
        ("bodySize", .integer, true), ("comment", .string, false),
    ]
    static let response: [(String, Kind, Bool)] = [
        ("status", .integer, true), ("statusText", .string, true), ("httpVersion", .string, true), ("cookies", .array, true),
        ("headers", .array, true), ("content", .object, true), ("redirectURL", .string, true), ("headersSize", .integer, true),
        ("bodySize", .integer, true), ("comment", .string, false),
    ]
    static let pair: [(String, Kind, Bool)] = [("name", .string, true), ("value", .string, true), ("comment", .string, false)]
    static let cookie: [(String, Kind, Bool)] = [
        ("name", .string, true), ("value", .string, true), ("path", .string, false), ("domain", .string, false),
        ("expires", .string, false), ("httpOnly", .bool, false), ("secure", .bool, false), ("comment", .string, false),
    ]
    static let postData: [(String, Kind, Bool)] = [("mimeType", .string, true), ("params", .array, false), ("text", .string, false), ("comment", .string, false)]
    static let content: [(String, Kind, Bool)] = [
        ("size", .integer, true), ("compression", .integer, false), ("mimeType", .string, true), ("text", .string, false),
        ("encoding", .string, false), ("comment", .string, false),
    ]
    static let timings: [(String, Kind, Bool)] = [
        ("blocked", .number, false), ("dns", .number, false), ("connect", .number, false), ("send", .number, true),
        ("wait", .number, true), ("receive", .number, true), ("ssl", .number, false), ("comment", .string, false),
    ]

    static func problems(in file: [String: Any]) -> [String] {
        guard let log = file["log"] as? [String: Any] else { return ["log: missing"] }
        var found = check(log, log: "log", against: Self.log)
        found += check(log["creator"] as? [String: Any] ?? [:], log: "log.creator", against: creator)
        for (index, entry) in (log["entries"] as? [[String: Any]] ?? []).enumerated() {
            let at = "log.entries[\(index)]"
            found += check(entry, log: at, against: Self.entry)
            let request = entry["request"] as? [String: Any] ?? [:]
            let response = entry["response"] as? [String: Any] ?? [:]
            found += check(request, log: at + ".request", against: Self.request)
            found += check(response, log: at + ".response", against: Self.response)
            found += check(response["content"] as? [String: Any] ?? [:], log: at + ".response.content", against: content)
            found += check(entry["timings"] as? [String: Any] ?? [:], log: at + ".timings", against: timings)
            if let post = request["postData"] as? [String: Any] { found += check(post, log: at + ".request.postData", against: postData) }
            for (list, shape) in [("headers", pair), ("queryString", pair), ("cookies", cookie)] {
                for (side, object) in [("request", request), ("response", response)] {
                    for (item, value) in (object[list] as? [[String: Any]] ?? []).enumerated() {
                        found += check(value, log: "\(at).\(side).\(list)[\(item)]", against: shape)
                    }
                }
            }
        }
        return found
    }

    static func check(_ object: [String: Any], log path: String, against fields: [(String, Kind, Bool)]) -> [String] {
        fields.compactMap { name, kind, required in
            guard let value = object[name] else { return required ? "\(path).\(name): missing" : nil }
            return matches(value, kind) ? nil : "\(path).\(name): not a \(kind)"
        }
    }

    static func matches(_ value: Any, _ kind: Kind) -> Bool {
        switch kind {
        case .string: value is String
        case .object: value is [String: Any]
        case .array: value is [Any]
        case .bool: (value as? NSNumber).map { String(cString: $0.objCType) == "c" } ?? false
        case .number: value is NSNumber && !matches(value, .bool)
        case .integer: (value as? NSNumber).map { !matches(value, .bool) && $0.doubleValue == $0.doubleValue.rounded() } ?? false
        }
    }
}
