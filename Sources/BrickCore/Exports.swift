// The transport's currency types (HTTPMethod, HTTPHeaders, TransportError, ResponseHead, TransferMetrics …)
// and the libcurl transport's configuration are part of the core's API: whoever imports the core sees them.
@_exported public import BrickTransport
@_exported public import BrickCurl
