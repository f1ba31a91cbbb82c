// CurlTransport's API speaks the transport seam's types: whoever imports BrickCurl sees them.
@_exported public import BrickTransport
