public import BrickTransport
public import FoundationEssentials

/// The fields a caller reads most, typed. Each is `nil` when the field is absent or its value is not what
/// the field's definition allows; a field sent more than once is read as its first line.
extension HTTPHeaders {
    /// `Content-Type`, as sent (``MIMEType`` reads its parts).
    public var contentType: String? { self["Content-Type"] }

    /// `Content-Length`: one to eighteen digits and nothing else (RFC 9110 §8.6), so that no value can
    /// overflow; describes the bytes that arrived, not a body the transport decoded
    /// (`TransportResponse.contentDecoded`).
    public var contentLength: Int? {
        guard let value = self["Content-Length"]?.trimmingHTTPSpace, (1...18).contains(value.utf8.count),
            value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(value)
    }

    /// `ETag`, the validator as sent, quotes and `W/` included (what `If-None-Match` takes back).
    public var eTag: String? { self["ETag"]?.trimmingHTTPSpace }

    /// `Last-Modified`, when it is an HTTP date (any of the three forms RFC 9110 allows).
    public var lastModified: Date? { self["Last-Modified"].flatMap(HTTPDate.parse) }

    /// `Date`, when it is an HTTP date.
    public var date: Date? { self["Date"].flatMap(HTTPDate.parse) }

    /// `Location`, as sent (a redirect's target or a created resource, possibly relative to the request's URL).
    public var location: String? { self["Location"]?.trimmingHTTPSpace }
}

extension String {
    /// Without the spaces and tabs HTTP allows around a field's value.
    fileprivate var trimmingHTTPSpace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
