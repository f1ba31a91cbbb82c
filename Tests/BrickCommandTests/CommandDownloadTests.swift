import BrickRequest
import Foundation
import Glibc
import Testing
import TestServers

/// `--download`: a file with progress, resumed after a cut or after Ctrl-C by running the same command again.
@Suite struct CommandDownloadTests {
    @Test func aCutDownloadResumesInTheSameRunWithRetryAndInTheNextRunWithout() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let scratch = try Paths.scratchDirectory("brick-download")
        defer { Paths.removeTree(scratch) }
        let size = 3_000_000
        let expected = Data(Blob.bytes(seed: 7, range: 0..<size))

        let retried = scratch + "/retried.bin"
        let url = server.baseURL + "/blob?size=\(size)&seed=7&cut=1000000&times=1&key=retried"
        let first = try await Brick.run("--download", retried, "--retry", "soft", "--timing", url)
        #expect(first.status == 0, "\(first.error)")
        #expect(FileManager.default.contents(atPath: retried) == expected)
        // Made as curl and HTTPie make a file: with what the umask leaves of 0666.
        let mode = try FileManager.default.attributesOfItem(atPath: retried)[.posixPermissions] as? Int
        #expect(mode == 0o666 & ~Int(try #require(Paths.umask())))
        #expect(first.error.contains("saved \(retried): 3.0 MB"), "\(first.error)")
        #expect(first.error.contains("→ #2 206"), "\(first.error)")
        #expect(server.ranges("retried").last?.hasPrefix("bytes=") == true)

        let later = scratch + "/later.bin"
        let cutURL = server.baseURL + "/blob?size=\(size)&seed=7&cut=1000000&times=1&key=later"
        let cut = try await Brick.run("--download", later, cutURL)
        #expect(cut.status == 1)
        #expect(!FileManager.default.fileExists(atPath: later))
        #expect(FileManager.default.fileExists(atPath: later + ".part"))
        let resumed = try await Brick.run("--download", later, cutURL)
        #expect(resumed.status == 0, "\(resumed.error)")
        #expect(resumed.error.contains(", resumed from "), "\(resumed.error)")
        #expect(FileManager.default.contents(atPath: later) == expected)
        #expect(!FileManager.default.fileExists(atPath: later + ".part"))
    }

    @Test func ctrlCKeepsThePartialFileAndTheSameCommandFinishesIt() async throws {
        let server = try nginx()
        let scratch = try Paths.scratchDirectory("brick-interrupt")
        defer { Paths.removeTree(scratch) }
        let destination = scratch + "/paced.bin"
        // Past its first MiB the paced file crawls at 1 kB/s: the first run is surely running when interrupted.
        let running = try Brick.start("--download", destination, server.url("/paced/paced.bin"))
        var reported: [String] = []
        for await line in running.errorLines {
            reported.append(line)
            if let percent = Self.percent(in: line), percent >= 60 { break }
        }
        #expect(reported.contains { Self.percent(in: $0) != nil }, "progress is reported: \(reported)")
        kill(running.process.pid, SIGINT)
        let interrupted = await running.outcome()
        #expect(interrupted.status == 130, "\(interrupted.error)")
        #expect(interrupted.error.contains("interrupted: "), "\(interrupted.error)")
        // nginx names a strong ETag and Accept-Ranges: bytes for a static file.
        #expect(interrupted.error.contains("kept in \(destination).part; the server offers byte ranges: run the same command to resume"))
        let kept = try #require(try FileManager.default.attributesOfItem(atPath: destination + ".part")[.size] as? Int)
        #expect(kept >= Nginx.pacedFileSize * 6 / 10)

        let finished = try await Brick.run("--download", destination, server.url("/paced/paced.bin"))
        #expect(finished.status == 0, "\(finished.error)")
        #expect(finished.error.contains("resumed from "), "\(finished.error)")
        #expect(FileManager.default.contents(atPath: destination) == FileManager.default.contents(atPath: server.directory + "/www/paced.bin"))
    }

    @Test func aDownloadOfAMissingFileFailsWithItsStatusAndLeavesNoFile() async throws {
        let scratch = try Paths.scratchDirectory("brick-missing")
        defer { Paths.removeTree(scratch) }
        let outcome = try await Brick.run("--download", scratch + "/x", try nginx().url("/no-such-file"))
        #expect(outcome.status == 4)
        #expect(outcome.error.contains("404"), "\(outcome.error)")
        #expect(!FileManager.default.fileExists(atPath: scratch + "/x"))
    }

    @Test func downloadWithOnlyAURLSavesUnderItsLastPathSegmentAndItsLastLineSays100Percent() async throws {
        let scratch = try Paths.scratchDirectory("brick-url-only")
        defer { Paths.removeTree(scratch) }
        let server = try nginx()
        let outcome = try await PipedChild.run(["/bin/sh", "-c", "cd '\(scratch)' && exec '\(try Brick.path())' --download '\(server.url("/small"))'"])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(FileManager.default.contents(atPath: scratch + "/small") == Data(String(repeating: "x", count: 100).utf8))
        let progress = outcome.error.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).compactMap { Self.percent(in: String($0)) }
        #expect(progress.last == 100, "\(outcome.error)")
    }

    /// The percentage a progress line shows, `… (64%), …`.
    static func percent(in line: String) -> Int? {
        guard let open = line.range(of: " ("), let close = line.range(of: "%)", range: open.upperBound..<line.endIndex) else { return nil }
        return Int(line[open.upperBound..<close.lowerBound])
    }
}
