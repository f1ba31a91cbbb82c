import BrickRequest
import BrickSystem
import BrickTransport
import Foundation
import TestServers
import Testing

/// A GET to any URL, retried quickly (10 ms backoff) after a transient failure.
final class FetchFile: Component, GETRequestType, APISessionRequestType, AbsoluteURLType {
    let path: String
    let autoRetryConfiguration: AutoRetryConfiguration
    init(_ url: String, retries: Int = 0) {
        path = url
        var rules = AutoRetryConfiguration.soft
        rules.maxRetryCount = retries
        rules.breakTime = .milliseconds(10)
        autoRetryConfiguration = retries > 0 ? rules : .none
        super.init()
    }
}

/// Downloads to files: streamed to disk, resumed with ranges (in one call, across calls and across a
/// process killed midway), restarted when the resource changed, never left half-written at the destination.
@Suite struct DownloadTests {
    /// A scratch directory and the destination inside it; removed at the end of the test.
    struct Scratch: ~Copyable {
        let directory: String
        var destination: URL { URL(fileURLWithPath: directory + "/file.bin") }
        var part: String { directory + "/file.bin.part" }
        var record: String { directory + "/file.bin.part.json" }
        init() throws { directory = try Paths.scratchDirectory("download") }
        deinit { try? FileManager.default.removeItem(atPath: directory) }
    }

    func contents(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }
    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test func aDownloadArrivesWholeWithProgressAndLeavesNothingBehind() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let size = 3 << 20
        let reports = Locked<[TransferProgress]>([])
        let result = try await FetchFile(server.baseURL + "/blob?size=\(size)&seed=3&key=whole")
            .download(to: scratch.destination) { progress in reports.withLock { $0.append(progress) } }
        #expect(try contents(scratch.destination) == Blob.bytes(seed: 3, range: 0..<size))
        #expect(result.length == Int64(size) && result.resumedFrom == 0 && !result.restarted)
        #expect(result.head.status == 200)
        #expect(!exists(scratch.part) && !exists(scratch.record))
        let progress = reports.withLock { $0 }
        #expect(progress.first?.completed == 0 && progress.first?.expected == Int64(size))
        #expect(progress.last?.completed == Int64(size) && progress.last?.expected == Int64(size))
        #expect(progress.last?.bytesPerSecond != nil)  // the rate of the transfer reaches a download's reports
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.completed <= $1.completed })
    }

    @Test(arguments: ["", "&etag=0&lastmod=1"])
    func aDownloadCutByTheServerResumesWithARangeInTheSameCall(validators: String) async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let size = 2 << 20, cut = 700_000
        let result = try await FetchFile(server.baseURL + "/blob?size=\(size)&seed=4&key=cut&cut=\(cut)&times=1\(validators)", retries: 3)
            .download(to: scratch.destination)
        #expect(try contents(scratch.destination) == Blob.bytes(seed: 4, range: 0..<size))
        #expect(server.ranges("cut") == ["", "bytes=\(cut)-"])
        #expect(result.head.status == 206)
        #expect(result.attempts.count == 2)
        #expect(result.attempts.first?.error?.transportError?.kind == .connectionLost)
        #expect(!result.restarted && result.resumedFrom == 0)
    }

    @Test func aFailedDownloadKeepsItsBytesAndTheNextCallResumesThem() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let size = 1 << 20, cut = 300_000
        let url = server.baseURL + "/blob?size=\(size)&seed=5&key=later&cut=\(cut)&times=1"
        await #expect(throws: BrickError.self) { _ = try await FetchFile(url).download(to: scratch.destination) }
        #expect(!exists(scratch.destination.path))
        #expect((try FileManager.default.attributesOfItem(atPath: scratch.part)[.size] as? Int) == cut)
        let result = try await FetchFile(url).download(to: scratch.destination)
        #expect(result.resumedFrom == Int64(cut))
        #expect(server.ranges("later") == ["", "bytes=\(cut)-"])
        #expect(try contents(scratch.destination) == Blob.bytes(seed: 5, range: 0..<size))
    }

    @Test func aChangedResourceIsFetchedAgainFromItsFirstByte() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let size = 1 << 20
        let url = server.baseURL + "/blob?size=\(size)&seed=6&key=changed&cut=200000&times=1&change_after=1"
        await #expect(throws: BrickError.self) { _ = try await FetchFile(url).download(to: scratch.destination) }
        let result = try await FetchFile(url).download(to: scratch.destination)
        #expect(server.ranges("changed") == ["", "bytes=200000-"])  // asked to resume; If-Range no longer matched
        #expect(result.restarted && result.head.status == 200)
        #expect(try contents(scratch.destination) == Blob.bytes(seed: 7, range: 0..<size))
    }

    /// While one download holds a destination, a second one to it (spelled through a symbolic link too) fails
    /// at once with a lock error; once the first has ended, the destination is free again.
    @Test(.timeLimit(.minutes(1))) func twoDownloadsToOneDestinationDoNotRunAtOnce() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let alias = scratch.directory + "/alias"
        #expect(symlink(scratch.directory, alias) == 0)
        let holding = Task { try await FetchFile(server.baseURL + "/hang?key=holder").download(to: scratch.destination) }
        await server.waitForArrivals("holder")  // the partial file is open and locked before the request goes out
        for destination in [scratch.destination, URL(fileURLWithPath: alias + "/file.bin")] {
            do {
                _ = try await FetchFile(server.baseURL + "/ok").download(to: destination)
                Issue.record("a second download to \(destination.path) ran")
            } catch {
                guard case .file(let failure) = error else { throw error }
                #expect(failure.operation == .lock)
            }
        }
        holding.cancel()
        _ = await holding.result
        let size = 100_000
        let result = try await FetchFile(server.baseURL + "/blob?size=\(size)&seed=9").download(to: scratch.destination)
        #expect(result.length == Int64(size))
    }

    /// Across processes the partial file carries a POSIX record lock: another process cannot take one while a
    /// download holds the destination, and can once it has ended.
    @Test(.timeLimit(.minutes(1))) func anotherProcessCannotLockADestinationInUse() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let (part, destination) = (scratch.part, scratch.destination)
        /// Exit status of a Python process that tries to take the record lock at once (0: it got it).
        func lockElsewhere() async throws -> Int32 {
            try await ChildProcess([Paths.venv + "/bin/python3", "-c",
                                    "import fcntl, sys; f = open(sys.argv[1], 'a'); fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)",
                                    part], logPath: "/dev/null").exitStatus()
        }
        let holding = Task { try await FetchFile(server.baseURL + "/hang?key=holder").download(to: destination) }
        await server.waitForArrivals("holder")
        #expect(try await lockElsewhere() != 0)
        holding.cancel()
        _ = await holding.result
        #expect(try await lockElsewhere() == 0)
    }

    @Test func withoutAValidatorNothingIsResumed() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let url = server.baseURL + "/blob?size=500000&seed=8&key=novalidator&cut=100000&times=1&etag=0"
        await #expect(throws: BrickError.self) { _ = try await FetchFile(url).download(to: scratch.destination) }
        #expect(!exists(scratch.record))
        let result = try await FetchFile(url).download(to: scratch.destination)
        #expect(server.ranges("novalidator") == ["", ""])
        #expect(result.resumedFrom == 0)
        #expect(try contents(scratch.destination) == Blob.bytes(seed: 8, range: 0..<500_000))
    }

    @Test func aCompleteFileLeftBeforeItsMoveIsFinishedByA416() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let size = 100_000
        let url = server.baseURL + "/blob?size=\(size)&seed=9&key=whole416"
        // What a crash between the last byte and the move leaves: the whole body and its record.
        try Data(Blob.bytes(seed: 9, range: 0..<size)).write(to: URL(fileURLWithPath: scratch.part))
        try Data(#"{"url":"\#(url)","validator":"\"v9\"","length":\#(size)}"#.utf8).write(to: URL(fileURLWithPath: scratch.record))
        let result = try await FetchFile(url).download(to: scratch.destination)
        #expect(result.head.status == 416)
        #expect(server.ranges("whole416") == ["bytes=\(size)-"])
        #expect(try contents(scratch.destination) == Blob.bytes(seed: 9, range: 0..<size))
    }

    @Test func aRejectedStatusFailsTypedAndMovesNothing() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let scratch = try Scratch()
        do {
            _ = try await FetchFile(server.baseURL + "/status?code=404&key=missing").download(to: scratch.destination)
            Issue.record("a 404 was saved")
        } catch {
            guard case .validation(.unacceptableStatusCode(404), let response) = error else { Issue.record("got \(error)"); return }
            #expect(String(decoding: response.body, as: UTF8.self) == "failure 1")
        }
        #expect(!exists(scratch.destination.path))
    }

    @Test func anUnwritableDestinationIsAFileError() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        do {
            _ = try await FetchFile(server.baseURL + "/blob?size=10").download(to: URL(fileURLWithPath: "/nonexistent-dir/x.bin"))
            Issue.record("downloaded into a missing directory")
        } catch {
            guard case .file(let failure) = error else { Issue.record("got \(error)"); return }
            #expect(failure.operation == .open && failure.osErrno == ENOENT)
        }
    }

    @Test func aDownloadKilledMidwayResumesInTheNextProcess() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let size = 6 << 20
        let url = server.baseURL + "/blob?size=\(size)&seed=10&key=restart"
        let killed = try await TransferProbe.run(["download", url, scratch.destination.path, String(1 << 20)], in: scratch.directory)
        #expect(killed.termination == .signalled(SIGKILL))
        let kept = try #require(try FileManager.default.attributesOfItem(atPath: scratch.part)[.size] as? Int)
        #expect(kept >= 1 << 20 && kept < size)
        #expect(exists(scratch.record))
        let resumed = try await TransferProbe.run(["download", url, scratch.destination.path], in: scratch.directory)
        #expect(resumed.termination == .exited(0), "\(resumed.output)")
        #expect(resumed.fields["resumedFrom"] as? Int == kept)
        #expect(resumed.fields["restarted"] as? Bool == false)
        #expect(resumed.fields["status"] as? Int == 206)
        #expect(server.ranges("restart") == ["", "bytes=\(kept)-"])
        #expect(try contents(scratch.destination) == Blob.bytes(seed: 10, range: 0..<size))
    }
}

/// Runs the transfer probe (Tests/TransferProbe): one download or upload in a process of its own.
enum TransferProbe {
    struct Outcome {
        let termination: ChildProcess.Termination
        let output: String
        /// The JSON line it printed, if any.
        let fields: [String: Any]
    }

    static func run(_ arguments: [String], in directory: String) async throws -> Outcome {
        guard let probe = Paths.builtProduct("TransferProbe") else {
            throw TestServerError("TransferProbe was not built beside the tests (swift build --build-tests builds it)")
        }
        let log = directory + "/probe-\(UUID().uuidString).log"
        defer { unlink(log) }
        let termination = try await ChildProcess([probe] + arguments, logPath: log).termination()
        let output = Paths.read(log)
        let line = output.split(separator: "\n").last { $0.hasPrefix("{") } ?? "{}"
        let fields = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
        return Outcome(termination: termination, output: output, fields: fields)
    }
}

/// `session.download(from:to:)` and how often progress is told.
@Suite struct SessionDownloadTests {
    @Test func aSessionDownloadsInOneLineResumesAndReportsProgressAtMostEachPercentEndingAt100() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let directory = try Paths.scratchDirectory("session-download")
        defer { Paths.removeTree(directory) }
        let destination = URL(fileURLWithPath: directory + "/blob.bin")
        let size = 300_000
        let reports = Locked<[TransferProgress]>([])
        let rules = AutoRetryConfiguration(breakTime: .milliseconds(5), maxRetryCount: 2, maxBreakTime: .milliseconds(5))
        // Cut once at 100,000 bytes: resumed in the same call.
        let result = try await Session().download(
            from: server.baseURL + "/blob?size=\(size)&seed=4&cut=100000&times=1&key=one-line", to: destination, retry: rules
        ) { progress in reports.withLock { $0.append(progress) } }
        #expect(result.length == Int64(size) && result.resumedFrom == 0)
        #expect(try Data(contentsOf: destination) == Data(Blob.bytes(seed: 4, range: 0..<size)))
        #expect(server.ranges("one-line") == ["", "bytes=100000-"])
        let told = reports.withLock { $0 }
        #expect(told.last?.completed == Int64(size) && told.last?.fractionCompleted == 1, "the last report is the whole file")
        #expect(told.count <= 2 * 101 + 2, "\(told.count) reports for \(size) bytes: at most each percent (or 100 ms)")
        #expect(zip(told, told.dropFirst()).allSatisfy { $0.completed <= $1.completed || $1.completed == 0 })
    }

    @Test func aBodyDrippedInTinyPiecesIsReportedAtMostEachPercentOrTenthOfASecond() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let directory = try Paths.scratchDirectory("dripped-download")
        defer { Paths.removeTree(directory) }
        let reports = Locked<[TransferProgress]>([])
        let started = ContinuousClock.now
        _ = try await Session().download(from: server.baseURL + "/drip?bytes=5000&ms=0&key=drip", to: URL(fileURLWithPath: directory + "/drip.bin")) {
            progress in reports.withLock { $0.append(progress) }
        }
        let elapsed = ContinuousClock.now - started
        let told = reports.withLock { $0 }
        let allowed = 101 + Int(elapsed / .milliseconds(100)) + 2
        print("dripped download: \(told.count) progress reports in \(elapsed)")
        #expect(told.count <= allowed, "\(told.count) reports in \(elapsed), at most \(allowed)")
        #expect(told.last?.completed == 5000 && told.last?.fractionCompleted == 1)
    }
}
