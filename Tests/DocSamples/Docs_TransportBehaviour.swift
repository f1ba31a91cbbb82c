// Generated from Docs/TransportBehaviour.md by .ci/doc-samples.py: edit the page, not this file.

import BrickRequest
import Foundation

fileprivate final class ListContainers: Component, GETRequestType, APISessionRequestType, UnixSocketType, JSONResponseType {
    var URLString: String { "http://docker/v1.43/containers/json" }  // the host names the server in `Host` only
    var unixSocketPath: String { "/var/run/docker.sock" }
}

fileprivate enum SamplesOfTransportBehaviour {

    // Swift block 1
    fileprivate static func sample1() async throws {
        var configuration = Session.Configuration()
        let secret = "from-your-secret-store"
        configuration.transportOptions.proxy = .through(Proxy(url: "http://proxy.internal:3128", username: "svc",
                                                              password: secret, bypass: ["localhost", ".internal"]))
    }
}
