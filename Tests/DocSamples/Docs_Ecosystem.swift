// Generated from Docs/Ecosystem.md by .ci/doc-samples.py: edit the page, not this file.

import BrickRequest
import Foundation


fileprivate enum SamplesOfEcosystem {

    // Swift block 2
    fileprivate static func sample2() async throws {
        let api = Session(configuration: Session.Configuration(baseURL: "https://api.example.com"))
        let order = Data(#"{"item": 7}"#.utf8)
        let response = try await api.send(TransportRequest(method: .post, url: "/orders", body: .data(order)),
                                           retry: .soft, validation: .successful)
        let stream = api.stream(TransportRequest(url: "/events"), retry: .soft)
        let (head, body) = try await stream.head()          // status first, then the body with back-pressure
        for try await chunk in body { print(chunk.count) }
    }
}
