/// The parameters of a request, in order.
///
/// Build it step by step as the seed does, or declaratively:
/// ```swift
/// var parameters = ParameterBuilder()
/// parameters.add(TextParameter(value: userID, name: "userID"))
///
/// ParameterBuilder { TextParameter(userID, name: "id"); if let page { TextParameter(page, name: "page") } }
/// ```
public struct ParameterBuilder: Sendable, Equatable {
    /// The text parameters, in the order they were added.
    public private(set) var textParameters: [TextParameter] = []

    /// An empty builder.
    public init() {}

    /// A builder holding the parameters `content` lists.
    public init(@ParameterListBuilder _ content: () -> [TextParameter]) {
        textParameters = content()
    }

    /// Adds a parameter after the others.
    public mutating func add(_ parameter: TextParameter) { textParameters.append(parameter) }

    /// Whether there is nothing to send (parameters with no value are not counted).
    public var isEmpty: Bool { textParameters.allSatisfy { $0.value == nil } }

    /// `name=value&…`, percent-encoded with ``PercentEncoding``; parameters with no value are left out.
    public func urlEncoded() -> String {
        textParameters.compactMap { parameter in
            parameter.value.map { PercentEncoding.encode(parameter.name) + "=" + PercentEncoding.encode($0) }
        }.joined(separator: "&")
    }
}

/// Lets ``ParameterBuilder/init(_:)`` take a list of parameters with `if`, `switch` and `for`.
@resultBuilder
public enum ParameterListBuilder {
    public static func buildExpression(_ parameter: TextParameter) -> [TextParameter] { [parameter] }
    public static func buildBlock(_ parts: [TextParameter]...) -> [TextParameter] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [TextParameter]?) -> [TextParameter] { part ?? [] }
    public static func buildEither(first part: [TextParameter]) -> [TextParameter] { part }
    public static func buildEither(second part: [TextParameter]) -> [TextParameter] { part }
    public static func buildArray(_ parts: [[TextParameter]]) -> [TextParameter] { parts.flatMap { $0 } }
}
