// The transport's currency types (HTTPMethod, HTTPHeaders, TransportError, ResponseHead, TransferMetrics …),
// the libcurl transport's configuration and the netlink reachability monitor are part of the core's API.
@_exported public import BrickTransport
@_exported public import BrickCurl
@_exported public import BrickReachability
