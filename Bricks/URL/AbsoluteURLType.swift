/// Ignores every base URL: the path is the whole URL.
/// Sets: `baseURL` = `nil`.
public protocol AbsoluteURLType: RequestType {}

extension AbsoluteURLType {
    public var baseURL: String? { nil }
}
