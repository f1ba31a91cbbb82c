/// A value that can be sent as a text parameter: strings, every integer width, `Float`, `Double`, `Bool`.
public protocol TextParameterValue: Sendable {
    /// The text sent for the value.
    var textParameterValue: String { get }
}

extension String: TextParameterValue { public var textParameterValue: String { self } }
extension Substring: TextParameterValue { public var textParameterValue: String { String(self) } }
extension Int: TextParameterValue { public var textParameterValue: String { String(self) } }
extension Int8: TextParameterValue { public var textParameterValue: String { String(self) } }
extension Int16: TextParameterValue { public var textParameterValue: String { String(self) } }
extension Int32: TextParameterValue { public var textParameterValue: String { String(self) } }
extension Int64: TextParameterValue { public var textParameterValue: String { String(self) } }
extension UInt: TextParameterValue { public var textParameterValue: String { String(self) } }
extension UInt8: TextParameterValue { public var textParameterValue: String { String(self) } }
extension UInt16: TextParameterValue { public var textParameterValue: String { String(self) } }
extension UInt32: TextParameterValue { public var textParameterValue: String { String(self) } }
extension UInt64: TextParameterValue { public var textParameterValue: String { String(self) } }
extension Float: TextParameterValue { public var textParameterValue: String { String(self) } }
extension Double: TextParameterValue { public var textParameterValue: String { String(self) } }
/// Sent as `true` or `false`.
extension Bool: TextParameterValue { public var textParameterValue: String { self ? "true" : "false" } }
