/// Reads `Content-Type` values (RFC 9110 §8.3): the media type and its parameters.
package enum ContentTypeValue {
    /// The media type without parameters, lowercased: `"application/json"` for `"Application/JSON; charset=utf-8"`.
    package static func essence(_ value: String) -> String {
        let end = value.firstIndex(of: ";") ?? value.endIndex
        return value[..<end].trimmingWhitespace.lowercased()
    }

    /// The value of parameter `name` (case-insensitive), unquoted and lowercased, or `nil` when absent.
    package static func parameter(_ name: String, in value: String) -> String? {
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingWhitespace.lowercased() == name.lowercased() else { continue }
            return pair[1].trimmingWhitespace.unquoted.lowercased()
        }
        return nil
    }
}
