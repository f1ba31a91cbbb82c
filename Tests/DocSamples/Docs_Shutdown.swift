// Generated from Docs/Shutdown.md by .ci/doc-samples.py: edit the page, not this file.

import BrickRequest
import BrickServiceLifecycle
import Foundation
import Logging
import ServiceLifecycle

fileprivate struct Server: Service { func run() async throws {} }

fileprivate enum SamplesOfShutdown {

    // Swift block 1
    fileprivate static func sample1() async throws {
        let api = Session()
        await api.shutdown(gracePeriod: .seconds(10))
    }

    // Swift block 2
    fileprivate static func sample2() async throws {
        let server = Server()
        let logger = Logger(label: "app")
        let api = Session()
        let group = ServiceGroup(services: [server, SessionService(api, gracePeriod: .seconds(10))],
                                 gracefulShutdownSignals: [.sigterm], logger: logger)
        try await group.run()
    }
}
