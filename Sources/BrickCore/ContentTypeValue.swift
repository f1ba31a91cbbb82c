/// Reads `Content-Type` values (RFC 9110 §8.3): the media type and its parameters.
public enum ContentTypeValue {
    /// The media type without parameters, lowercased: `"application/json"` for `"Application/JSON; charset=utf-8"`.
    public static func essence(_ value: String) -> String {
        let end = value.firstIndex(of: ";") ?? value.endIndex
        return trimmed(value[..<end]).lowercased()
    }

    /// The value of parameter `name` (case-insensitive), unquoted and lowercased, or `nil` when absent.
    public static func parameter(_ name: String, in value: String) -> String? {
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, trimmed(pair[0]).lowercased() == name.lowercased() else { continue }
            let raw = trimmed(pair[1])
            let unquoted = raw.count >= 2 && raw.first == "\"" && raw.last == "\"" ? raw.dropFirst().dropLast() : raw
            return unquoted.lowercased()
        }
        return nil
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map(text.index(after:)) ?? start
        return text[start..<end]
    }
}
