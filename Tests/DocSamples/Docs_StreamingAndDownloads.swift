// Generated from Docs/StreamingAndDownloads.md by .ci/doc-samples.py: edit the page, not this file.

import BrickRequest
import Foundation

fileprivate final class GetLog: Component, GETRequestType, APISessionRequestType {
    let id: Int
    var URLString: String { "https://api.example.com/logs/\(id)" }
    init(id: Int) { self.id = id; super.init() }
}
fileprivate struct LineParser { func feed(_ chunk: Data) {} }
fileprivate struct ProgressBar { func update(_ fraction: Double) {} }
fileprivate final class GetReport: Component, GETRequestType, APISessionRequestType {
    var URLString: String { "https://api.example.com/report" }
}
fileprivate final class Notifications: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType {
    var URLString: String { "https://api.example.com/v1/notifications" }
}

fileprivate struct User: Decodable, Sendable { let id: Int }
fileprivate final class GetArchive: Component, GETRequestType, APISessionRequestType, SoftAutoRetryType {
    let version: String
    var URLString: String { "https://example.com/archive-\(version).tar" }
    init(version: String) { self.version = version; super.init() }
}
fileprivate final class PutBackup: Component, PUTRequestType, APISessionRequestType, RawBodyType, DataResponseType {
    let path = "/backups/today"
    let rawBody: RequestBody = .file(path: "/var/backups/today.tar")   // or .stream(BodyStream(chunks, length: nil))
}


fileprivate enum SamplesOfStreamingAndDownloads {

    // Swift block 1
    fileprivate static func sample1() async throws {
        let parser = LineParser()
        let bar = ProgressBar()
        for try await event in GetLog(id: 7).stream() {
            switch event {
            case .head(let head): print("status", head.status)
            case .body(let chunk): parser.feed(chunk)
            case .downloadProgress(let progress): bar.update(progress.fractionCompleted ?? 0)
            case .uploadProgress, .end: break
            }
        }
    }

    // Swift block 2
    fileprivate static func sample2() async throws {
        let store = try FileBodyStore()               // a file of its own in /tmp; MemoryBodyStore() keeps it in memory
        let head = try await GetReport().stream().collect(into: store)
        let bytes = try store.data()                  // or use store.fileURL; store.removeFile() when done
    }

    // Swift block 3
    fileprivate static func sample3() async throws {
        let session = Session()
        let url = "https://api.example.com/v1/events"
        let stream = session.stream(TransportRequest(url: url))
        for try await event in Notifications().serverSentEvents() {
            print(event.type, event.id, event.data)   // "message", "42", "{\"text\": …}"
        }
        // the same for a request value, and for a stream you already hold:
        for try await event in session.serverSentEvents(TransportRequest(url: url), retry: .soft) { print(event.data) }
        for try await event in stream.serverSentEvents() { print(event.data) }   // this one connection, never reopened
    }

    // Swift block 4
    fileprivate static func sample4() async throws {
        let api = Session(configuration: Session.Configuration(baseURL: "https://api.example.com"))
        let data   = try await Session.shared.data(from: "https://example.com/file")
        let json   = try await api.json(from: "/users/1")                      // JSON, subscriptable
        let user   = try await api.decode(User.self, from: "/users/1")         // any Decodable
        let text   = try await api.string(from: "/motd", headers: ["Accept-Language": "cs"])
        let stable = try await api.data(from: "/flaky", retry: .soft)          // with retry rules
    }

    // Swift block 5
    fileprivate static func sample5() async throws {
        let result = try await GetArchive(version: "2.1").download(to: URL(fileURLWithPath: "/srv/archive.tar")) { progress in
            print(progress)                                  // bytes on disk / complete length, after each chunk
        }
        print(result.length, result.resumedFrom, result.restarted, result.timeline)   // … #1 connection lost → waited 1.0 s → #2 206
    }

    // Swift block 6
    fileprivate static func sample6() async throws {
        for try await event in PutBackup().stream() {
            if case .uploadProgress(let progress) = event { print(progress.fractionCompleted ?? 0) }
        }
    }
}
