public import FoundationEssentials

/// Decodes the body as text in the charset its `Content-Type` names (`utf-8`, `us-ascii`, `iso-8859-1`,
/// `utf-16`, `utf-16be/le`, `utf-32`, `utf-32be/le`), or in ``defaultCharset`` when it names none.
/// Sets: `SerializedObject` = `String`; `responseSerializer` = the decoded text (bytes invalid in the
/// charset, or a charset not in the list, throw `ResponseSerializationError.undecodableText(charset:)`).
public protocol StringResponseType: ResponseType where SerializedObject == String {
    /// The charset used when the response names none. Default is UTF-8.
    var defaultCharset: String.Encoding { get }
}

extension StringResponseType {
    public var defaultCharset: String.Encoding { .utf8 }

    /// The body decoded as text.
    public var responseSerializer: ResponseSerializer<String> { Charset.serializer(fallback: defaultCharset) }
}

/// Charset names from `Content-Type` values.
enum Charset {
    /// The body as text in the charset its `Content-Type` names, or in `fallback` when it names none.
    static func serializer(fallback: String.Encoding) -> ResponseSerializer<String> {
        ResponseSerializer { response in
            let named = name(inContentType: response.head.headers["Content-Type"])
            guard let encoding = named.map(encoding(named:)) ?? fallback else {
                throw ResponseSerializationError.undecodableText(charset: named ?? "?")
            }
            guard let text = String(data: response.body, encoding: encoding) else {
                throw ResponseSerializationError.undecodableText(charset: named ?? Self.name(of: encoding))
            }
            return text
        }
    }

    /// The `charset` parameter of a `Content-Type` value, lowercased and unquoted.
    static func name(inContentType value: String?) -> String? {
        value.flatMap { ContentTypeValue.parameter("charset", in: $0) }
    }

    /// The IANA name of a supported encoding.
    static func name(of encoding: String.Encoding) -> String {
        names.first { self.encoding(named: $0) == encoding } ?? String(describing: encoding)
    }

    private static let names = ["utf-8", "us-ascii", "iso-8859-1", "utf-16", "utf-16be", "utf-16le", "utf-32", "utf-32be", "utf-32le"]

    /// The encoding for a charset name, or `nil` when it is not supported.
    static func encoding(named name: String) -> String.Encoding? {
        switch name {
        case "utf-8", "utf8": .utf8
        case "us-ascii", "ascii": .ascii
        case "iso-8859-1", "latin1", "iso_8859-1": .isoLatin1
        case "utf-16": .utf16
        case "utf-16be": .utf16BigEndian
        case "utf-16le": .utf16LittleEndian
        case "utf-32": .utf32
        case "utf-32be": .utf32BigEndian
        case "utf-32le": .utf32LittleEndian
        default: nil
        }
    }
}
