// The transport seam's currency types (HTTPMethod, HTTPHeaders, TransportError, ResponseHead, TransferMetrics,
// Reachability …) are part of the core's API. The core names no engine: the libcurl transport and the netlink
// reachability are wired in by the umbrella module, BrickRequest.
@_exported public import BrickTransport
