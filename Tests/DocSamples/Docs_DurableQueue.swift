// Generated from Docs/DurableQueue.md by .ci/doc-samples.py: edit the page, not this file.

import BrickQueue
import BrickRequest
import Foundation

fileprivate struct Reading: Codable, Sendable { let meter: String; let kWh: Double }
fileprivate extension DeliveryQueue {
    static let readings = try! DeliveryQueue(path: "/var/lib/meter/outbox.sqlite", session: .shared)  // your app's choice
}

fileprivate final class ReportReading: Component, POSTRequestType, APISessionRequestType, JSONBodyType, DeferrableRequestType {
    var URLString: String { "https://meters.example.com/readings" }
    var deliveryQueue: DeliveryQueue { .readings }
    let jsonBody: Reading
    init(_ reading: Reading) { jsonBody = reading; super.init() }
}


fileprivate enum SamplesOfDurableQueue {

    // Swift block 1
    fileprivate static func sample1() async throws {
        let reading = Reading(meter: "m-1", kWh: 1.5)
        DeliveryQueue.readings.start()                       // once, at launch: delivers what the last run left, then new ones
        let queued = try ReportReading(reading).enqueue()    // returns once it is on disk
        for await outcome in DeliveryQueue.readings.outcomes() where outcome.id == queued.id { print(outcome.result) }
    }
}
