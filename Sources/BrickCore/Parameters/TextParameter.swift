/// A named text parameter: a query item for GET, HEAD and DELETE, a form field otherwise.
public struct TextParameter: Sendable, Equatable {
    /// The parameter's name.
    public let name: String
    /// The text sent, or `nil` when the parameter is left out (a `nil` value with no fallback).
    public let value: String?

    /// A parameter with `value`: `TextParameter(value: userID, name: "userID")`.
    public init(value: some TextParameterValue, name: String) {
        self.name = name
        self.value = value.textParameterValue
    }

    /// A parameter with `value`: `TextParameter(userID, name: "id")`.
    public init(_ value: some TextParameterValue, name: String) {
        self.init(value: value, name: name)
    }

    /// A parameter whose value may be missing: `fallback` is sent instead of a `nil` value
    /// (`catchOnNil`), and with no fallback the parameter is left out.
    public init<Value: TextParameterValue>(value: Value?, name: String, catchOnNil fallback: (any TextParameterValue)? = nil) {
        self.name = name
        self.value = value?.textParameterValue ?? fallback?.textParameterValue
    }
}
