import FoundationEssentials

/// The parameters of a request, in order: text parameters, and files for a multipart body.
///
/// Build it step by step, or declaratively:
/// ```swift
/// var parameters = ParameterBuilder()
/// parameters.add(TextParameter(value: userID, name: "userID"))
///
/// ParameterBuilder { TextParameter(userID, name: "id"); if let page { TextParameter(page, name: "page") } }
/// ```
public struct ParameterBuilder: Sendable {
    /// The text parameters, in the order they were added.
    public private(set) var textParameters: [TextParameter] = []
    /// The file parameters, in the order they were added; any file makes the body `multipart/form-data`.
    public private(set) var fileParameters: [FileParameter] = []

    /// An empty builder.
    public init() {}

    /// A builder holding the parameters `content` lists.
    public init(@ParameterListBuilder _ content: () -> [ParameterListBuilder.Entry]) {
        for entry in content() {
            switch entry {
            case .text(let parameter): add(parameter)
            case .file(let parameter): add(parameter)
            }
        }
    }

    /// Adds a text parameter after the others.
    public mutating func add(_ parameter: TextParameter) { textParameters.append(parameter) }

    /// Adds a file parameter after the others.
    public mutating func add(_ parameter: FileParameter) { fileParameters.append(parameter) }

    /// Whether there is nothing to send (text parameters with no value are not counted).
    public var isEmpty: Bool { fileParameters.isEmpty && textParameters.allSatisfy { $0.value == nil } }

    /// `name=value&…` of the text parameters, percent-encoded (every byte but RFC 3986's unreserved
    /// characters); parameters with no value are left out.
    public func urlEncoded() -> String {
        guard !textParameters.isEmpty else { return "" }
        return encoded { length, write in
            String(unsafeUninitializedCapacity: length) { output in
                write(UnsafeMutableRawBufferPointer(output))
                return length
            }
        }
    }

    /// ``urlEncoded()``'s bytes, as a form body: written where the `Data` keeps them (made with `count`,
    /// they were zeroed first, and written through its checked mutable access).
    func urlEncodedBody() -> Data {
        guard !textParameters.isEmpty else { return Data() }
        return encoded { length, write in
            guard length > 0 else { return Data() }
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 1)
            write(UnsafeMutableRawBufferPointer(start: bytes, count: length))
            return Data(bytesNoCopy: bytes, count: length, deallocator: .custom { bytes, _ in bytes.deallocate() })
        }
    }

    /// Calls `make` with the length of ``urlEncoded()`` and a function that writes it at the start of a
    /// buffer at least that long: each name and value is counted once and then written once, copied whole
    /// when it has nothing to escape (joining encoded strings copied a 1 KiB form three times).
    private func encoded<Result>(_ make: (Int, (UnsafeMutableRawBufferPointer) -> Void) -> Result) -> Result {
        let parameters = textParameters
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * parameters.count) { lengths in
            var length = -1  // no `&` before the first pair
            for (index, parameter) in parameters.enumerated() {
                guard let value = parameter.value else { continue }
                lengths[2 * index] = PercentEncoding.encodedCount(of: parameter.name)
                lengths[2 * index + 1] = PercentEncoding.encodedCount(of: value)
                length += 2 + lengths[2 * index] + lengths[2 * index + 1]
            }
            return make(Swift.max(length, 0)) { output in
                guard var cursor = output.baseAddress else { return }
                var first = true
                for (index, parameter) in parameters.enumerated() {
                    guard let value = parameter.value else { continue }
                    if !first {
                        cursor.storeBytes(of: UInt8(ascii: "&"), as: UInt8.self)
                        cursor += 1
                    }
                    first = false
                    PercentEncoding.write(parameter.name, encodedCount: lengths[2 * index], to: &cursor)
                    cursor.storeBytes(of: UInt8(ascii: "="), as: UInt8.self)
                    cursor += 1
                    PercentEncoding.write(value, encodedCount: lengths[2 * index + 1], to: &cursor)
                }
            }
        }
    }
}

/// Lets ``ParameterBuilder/init(_:)`` take a list of parameters with `if`, `switch` and `for`.
@resultBuilder
public enum ParameterListBuilder {
    /// A text or a file parameter.
    public enum Entry: Sendable {
        /// A text parameter.
        case text(TextParameter)
        /// A file parameter.
        case file(FileParameter)
    }

    /// A text parameter as one entry.
    public static func buildExpression(_ parameter: TextParameter) -> [Entry] { [.text(parameter)] }
    /// A file parameter as one entry.
    public static func buildExpression(_ parameter: FileParameter) -> [Entry] { [.file(parameter)] }
    /// The entries of every line, in order.
    public static func buildBlock(_ parts: [Entry]...) -> [Entry] { parts.flatMap { $0 } }
    /// The entries of an `if` without `else`, or none.
    public static func buildOptional(_ part: [Entry]?) -> [Entry] { part ?? [] }
    /// The entries of the first branch.
    public static func buildEither(first part: [Entry]) -> [Entry] { part }
    /// The entries of the second branch.
    public static func buildEither(second part: [Entry]) -> [Entry] { part }
    /// The entries of every turn of a `for` loop.
    public static func buildArray(_ parts: [[Entry]]) -> [Entry] { parts.flatMap { $0 } }
}
