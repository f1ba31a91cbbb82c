/// The order interceptors run in: a higher priority adapts the request first and processes the response
/// last. So the lowest priority adapts last and sees the request as it is sent (the stock logger runs at
/// `.low.less`), and the highest sees the response after everyone else (the authenticators, at
/// ``authentication``, see a `401` once your interceptors have processed it).
///
/// Order relative to another interceptor without caring about the rest: `OtherInterceptor.priority.more`
/// runs just before it, `.less` just after.
public struct InterceptorPriority: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The number behind the order; higher runs earlier.
    public let value: Int

    /// A priority of `value`; prefer the named ones, and `.custom` only when they do not fit.
    public static func custom(_ value: Int) -> InterceptorPriority { InterceptorPriority(value: value) }

    /// After every other kind.
    public static let low = InterceptorPriority(value: 100)
    /// The default.
    public static let normal = InterceptorPriority(value: 200)
    /// Before `normal`.
    public static let high = InterceptorPriority(value: 300)
    /// The stock authenticators: they adapt a request before `high`, `normal` and `low` interceptors (which
    /// then see, and may log, the credentials' header), and process its response after them.
    public static let authentication = InterceptorPriority(value: 400)
    /// The former name of ``authentication``.
    @available(*, deprecated, renamed: "authentication")
    public static var library: InterceptorPriority { authentication }
    /// Before everything, the authenticators included; use only when you must precede them.
    public static let max = InterceptorPriority(value: 500)

    /// Just below this priority: runs right after interceptors of this priority.
    public var less: InterceptorPriority { InterceptorPriority(value: value - 1) }
    /// Just above this priority: runs right before interceptors of this priority.
    public var more: InterceptorPriority { InterceptorPriority(value: value + 1) }

    public static func < (lhs: InterceptorPriority, rhs: InterceptorPriority) -> Bool { lhs.value < rhs.value }
    public var description: String { "priority \(value)" }
}
