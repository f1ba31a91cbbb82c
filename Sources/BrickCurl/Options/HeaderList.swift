import BrickTransport
import CCurl

/// The header list libcurl sends for a request (`CURLOPT_HTTPHEADER`), and what it was made from, so that a
/// kept handle whose next request sends the same fields uses it again instead of building it anew (two
/// allocations per field, and the line formatted in between). Engine thread only; freed with its last user.
///
/// The list holds the request's fields (an empty value in curl's `Name;` syntax, since `Name:` would remove
/// the field), the codings the engine decodes in `Accept-Encoding` unless the request names its own, for a
/// body that libcurl would send with `Expect: 100-continue` (one of unknown length or over 1 MiB) an empty
/// `Expect:` so that libcurl never waits for `100 Continue`, and for a body an empty `Content-Type:` when the
/// request has none, so that libcurl adds no form type of its own. When the request names no `Accept`, an
/// empty `Accept:` keeps libcurl's `Accept: */*` out: a request without the field accepts any type (RFC 9110
/// §12.5.1), and the 13 bytes cost libcurl ~1 k instructions a request, net of checking one field more.
/// (Fields that libcurl writes itself from options, `User-Agent` or `Accept-Encoding`, cost more there: it
/// formats them anew for every request. Each field in the list costs too: libcurl checks the list for a dozen
/// names of its own, and writes each of its lines into the request a byte at a time, through its `printf`,
/// ~95 instructions a byte.) A body's `Content-Type: application/x-www-form-urlencoded`, a form's, is the one
/// field libcurl writes itself by one copy: it is left out of the list, and libcurl writes the same line.
final class HeaderList {
    let list: UnsafeMutablePointer<curl_slist>?
    private let headers: HTTPHeaders
    private let hasBody: Bool
    private let refusesExpect: Bool
    private let acceptEncoding: Bool

    /// - Parameter refusesExpect: Whether libcurl would ask for `100 Continue` for the body: it does for a
    ///   body of unknown length or one over 1 MiB, never for a shorter one (libcurl 7.88; a body in memory
    ///   below ``expectThreshold`` leaves the field out, one field less for libcurl to check and write).
    init(_ headers: HTTPHeaders, hasBody: Bool, refusesExpect: Bool, acceptEncoding: Bool) {
        self.headers = headers
        self.hasBody = hasBody
        self.refusesExpect = refusesExpect
        self.acceptEncoding = acceptEncoding
        var list: UnsafeMutablePointer<curl_slist>?
        let formType = hasBody && Self.namesOnlyTheFormType(headers)
        for field in headers {
            if formType && HTTPHeaders.sameName(field.name, "Content-Type") { continue }
            let line = field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
            list = curl_slist_append(list, line)
        }
        if acceptEncoding && headers["Accept-Encoding"] == nil { list = curl_slist_append(list, ContentDecoder.acceptEncodingField) }
        if headers["Accept"] == nil { list = curl_slist_append(list, "Accept:") }
        if refusesExpect && headers["Expect"] == nil { list = curl_slist_append(list, "Expect:") }
        if hasBody && headers["Content-Type"] == nil { list = curl_slist_append(list, "Content-Type:") }
        self.list = list
    }

    deinit { curl_slist_free_all(list) }

    /// Whether this list is the one `headers` (with or without a body, asking for codings or not) would make.
    func isMade(from headers: HTTPHeaders, hasBody: Bool, refusesExpect: Bool, acceptEncoding: Bool) -> Bool {
        hasBody == self.hasBody && refusesExpect == self.refusesExpect && acceptEncoding == self.acceptEncoding
            && headers == self.headers
    }

    /// Whether the one `Content-Type` of `headers` is the form type that libcurl writes itself, exactly,
    /// for every request with a body whose list names no type (libcurl 7.88 and later).
    static func namesOnlyTheFormType(_ headers: HTTPHeaders) -> Bool {
        headers.values(for: "Content-Type") == [formType]
    }

    /// The type libcurl gives a body when the header list names none.
    static let formType = "application/x-www-form-urlencoded"

    /// A body in memory shorter than this goes without an `Expect:` field: libcurl asks for `100 Continue`
    /// only above 1 MiB (half of it here, for a libcurl that would lower its threshold).
    static let expectThreshold = 512 << 10
}
