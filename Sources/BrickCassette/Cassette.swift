public import BrickCore
import BrickSystem
public import BrickTransport
import FoundationEssentials

/// Real traffic recorded once and replayed in tests: a HAR 1.2 file of a session's exchanges, written by
/// the session's own transport while recording, and answering in its place while replaying.
///
/// ```swift
/// let cassette = try Cassette("Tests/Cassettes/users.har", mode: .once)
/// let user = try await cassette.run(like: .api) { try await GetUser(userID: "100").response() }
/// ```
/// Recording and replay sit under the session's pipeline, so bricks, retries (each attempt is an entry),
/// redirects (each hop is one), caching and cookies behave in replay as they did live. Secrets are redacted
/// as they are recorded (``CassetteRedaction``). `BRICK_RECORD` overrides the mode for a whole test run:
/// `all` records every cassette again, `none` only replays, `once` records the missing ones.
public final class Cassette: Sendable {
    /// When a cassette records, as VCR names it.
    public enum Mode: String, Sendable, CaseIterable {
        /// Always sends to the network and records, replacing the file.
        case record
        /// Answers from the file only, and never touches the network; a missing file is an error.
        case replay
        /// Replays when the file exists, and records it when it does not.
        case once
    }

    /// The environment variable that overrides every cassette's mode: `all`, `none` or `once`.
    public static let environmentVariable = "BRICK_RECORD"

    /// The file.
    public let path: String
    /// The mode in force (the environment's, when `BRICK_RECORD` is set).
    public let mode: Mode
    /// Whether this cassette records (`record`, or `once` with no file yet); otherwise it replays.
    public var isRecording: Bool { recorder != nil }
    private let recorder: Recorder?
    private let player: Player?
    private let loaded: [HAR.Entry]

    /// Opens the cassette at `path`: reads and checks the file unless the cassette is to record.
    /// - Parameters:
    ///   - path: The HAR file.
    ///   - mode: When to record. Default ``Mode/once``. `BRICK_RECORD` overrides it.
    ///   - redaction: What recording leaves out. Default: every secret the logger knows of.
    ///   - matching: How replay finds a request's answer. Default: method and URL.
    ///   - replaysTimings: Whether a replayed answer takes as long as the recorded one did (on the session's
    ///     clock). Default `false`.
    ///   - repeatsLastAnswer: Whether a request whose recorded answers were all used gets the last one again,
    ///     rather than failing. Default `false`.
    ///   - maxBodySize: Bodies over this many bytes are left out of the recording (the entry says so). 1 MiB.
    ///   - maxFileSize: The largest file read. 64 MiB.
    /// - Throws: ``CassetteError``: a missing file in replay, a file that is not a valid HAR, a bad `BRICK_RECORD`.
    public init(
        _ path: String, mode: Mode = .once, redaction: CassetteRedaction = CassetteRedaction(),
        matching: ReplayMatching = ReplayMatching(), replaysTimings: Bool = false, repeatsLastAnswer: Bool = false,
        maxBodySize: Int = 1 << 20, maxFileSize: Int = 64 << 20
    ) throws(CassetteError) {
        self.path = path
        self.mode = try Self.override(of: mode, environment: environmentValue(Self.environmentVariable), path: path)
        let file = self.mode == .record ? nil : try HAR.File.read(path, limit: maxFileSize)
        if self.mode == .replay, file == nil { throw CassetteError(.notFound, path: path, message: "no cassette to replay") }
        loaded = file?.log.entries ?? []
        if file != nil {
            recorder = nil
            player = Player(entries: loaded, matching: matching, replaysTimings: replaysTimings, repeatsLastAnswer: repeatsLastAnswer)
        } else {
            recorder = Recorder(redaction: redaction, bodyLimit: max(0, maxBodySize))
            player = nil
        }
    }

    /// A cassette that records into `path`, whatever `BRICK_RECORD` says (`brick --har` writes one).
    public init(recordingTo path: String, redaction: CassetteRedaction = CassetteRedaction(), maxBodySize: Int = 1 << 20) {
        self.path = path
        mode = .record
        loaded = []
        recorder = Recorder(redaction: redaction, bodyLimit: max(0, maxBodySize))
        player = nil
    }

    /// `mode`, or the one `BRICK_RECORD`'s value names.
    static func override(of mode: Mode, environment value: String?, path: String) throws(CassetteError) -> Mode {
        switch value {
        case nil, "": mode
        case "all", "record": .record
        case "none", "replay": .replay
        case "once": .once
        case let other?:
            throw CassetteError(.invalidMode, path: path, message: "\(environmentVariable)=\(other.debugDescription) names no mode (all, none, once)")
        }
    }

    /// The entries: those recorded so far while recording, those read while replaying.
    public var entries: [HAR.Entry] { recorder?.recorded ?? loaded }

    /// The requests replay found no answer for so far.
    public var mismatches: [ReplayMismatch] { player?.unmatched ?? [] }

    /// The transport to give a session: `live`, recorded, while recording; the file's answers while replaying
    /// (`live` is then never used). The delays a cassette opened with `replaysTimings` replays wait on `clock`.
    public func transport(wrapping live: @autoclosure () -> any Transport, clock: any Clock<Duration> = ContinuousClock()) -> any Transport {
        if let recorder { return RecordingTransport(live: live(), recorder: recorder) }
        return ReplayTransport(player: player ?? Player(entries: [], matching: ReplayMatching(), replaysTimings: false, repeatsLastAnswer: false), clock: clock)
    }

    /// A session configured as `session` is whose requests go through this cassette: recorded through
    /// `session`'s own transport, or replayed with no network (and with no route to wait for: a replayed
    /// session's reachability does not look at the network).
    public func session(like session: Session) -> Session {
        var configuration = session.configuration
        configuration.reachability = isRecording ? session.reachability : UnknownReachability()
        return Session(configuration: configuration, transport: transport(wrapping: session.transport, clock: configuration.clock))
    }

    /// Runs `body` with a session like `session` on this cassette as `Session.current` (which the session
    /// bricks use), then writes the recording. A body that throws leaves the file as it was.
    public func run<Value>(like session: Session, _ body: () async throws -> Value) async throws -> Value {
        let value = try await Session.$current.withValue(self.session(like: session)) { try await body() }
        try save()
        return value
    }

    /// Writes the recording (nothing while replaying): the whole file to a temporary name beside it, owner
    /// read and write only, renamed into place. The directory is made when missing.
    /// - Throws: ``CassetteError/Kind/cannotWrite``; no file is left half-written.
    public func save() throws(CassetteError) {
        guard let recorder else { return }
        let file = HAR.File(log: HAR.Log(creator: HAR.Creator(name: "BrickRequest", version: Session.version), entries: recorder.recorded))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(file) } catch { throw CassetteError(.cannotWrite, path: path, message: "\(error)") }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex, !FileManager.default.fileExists(atPath: String(path[..<slash])) {
            try? FileManager.default.createDirectory(atPath: String(path[..<slash]), withIntermediateDirectories: true)
        }
        if let failure = writeAtomically(data, to: path) {
            throw CassetteError(.cannotWrite, path: path, message: SystemError(code: failure).description)
        }
    }
}
