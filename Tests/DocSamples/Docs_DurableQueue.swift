// Generated from Docs/DurableQueue.md by .ci/doc-samples.py: edit the page, not this file.

import BrickQueue
import BrickQueuePostgres
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

    // Swift block 2
    fileprivate static func sample2() async throws {
        // Package.swift: .package(url: "https://github.com/<owner>/BrickRequest", from: "0.10.0", traits: ["Postgres"])
        let database = try PostgresDatabase("postgresql://deliverer@db.internal/app?sslmode=verify-full")  // password: PGPASSWORD or ~/.pgpass
        let webhooks = try DeliveryQueue(postgres: database, schema: "outbox", name: "webhooks", session: .shared)
        webhooks.start()
    }

    // Swift block 3
    fileprivate static func sample3() async throws {
        let database = try PostgresDatabase("host=/run/postgresql dbname=shop")
        let webhooks = try DeliveryQueue(postgres: database, schema: "outbox", name: "webhooks", session: .shared)
        let notification = TransportRequest(method: .post, url: "https://partner.example.com/hooks/orders", body: .data(Data(#"{"order":42}"#.utf8)))
        try webhooks.enqueue(notification, label: "order 42", alongside: [
            PostgresStatement("INSERT INTO orders (id, customer, total) VALUES ($1, $2, $3)", ["42", "c-7", "99.90"]),
        ])
    }
}
