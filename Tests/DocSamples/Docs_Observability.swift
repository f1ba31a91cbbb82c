// Generated from Docs/Observability.md by .ci/doc-samples.py: edit the page, not this file.

import BrickObservability
import BrickRequest
import Foundation
import Tracing


fileprivate enum SamplesOfObservability {

    // Swift block 1
    fileprivate static func sample1() async throws {
        var configuration = Session.Configuration(baseURL: "https://api.example.com")
        configuration.addTracing(InstrumentationSystem.tracer)  // a span per call and per attempt, traceparent sent
        configuration.addMetrics()                               // to MetricsSystem.factory
    }
}
