/// A setting of a session's origin protection out of its range: refused when the setting is made, so that a
/// session never runs with it.
public struct OriginSettingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The setting, as `Type.property`.
    public let setting: String
    /// The value given.
    public let value: Double
    /// The values allowed.
    public let allowed: ClosedRange<Double>

    public var description: String {
        "\(setting) must be between \(allowed.lowerBound.shortText) and \(allowed.upperBound.shortText); it was \(value.shortText)"
    }

    /// Throws when `value` is not within `allowed` (a NaN never is).
    static func check(_ setting: String, _ value: Double, within allowed: ClosedRange<Double>) throws(OriginSettingError) {
        guard allowed.contains(value) else { throw OriginSettingError(setting: setting, value: value, allowed: allowed) }
    }
}

extension Double {
    /// `3` rather than `3.0`; other values as Swift writes them.
    fileprivate var shortText: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
