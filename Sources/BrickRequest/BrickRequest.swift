// `import BrickRequest` gives the core, the cookie jar, WebSockets, the stock bricks, and the engines the core leaves out: the libcurl
// transport and the netlink reachability, wired in as a session's defaults (Session+Defaults.swift).
@_exported public import BrickCore
@_exported public import BrickCookies
@_exported public import BrickWebSocket
@_exported public import Bricks
@_exported public import BrickCurl
@_exported public import BrickReachability
