import BrickRequest
import BrickSystem
import BrickTransport
import Glibc

/// Download progress on standard error. On a terminal, one line redrawn at most ten times a second:
/// `[########------------]  40.1 MB of 100.0 MB (40%), 12.3 MB/s, 5 s left`, and always the last frame, at
/// 100 %. Elsewhere (a log, a pipe), a line each time another tenth of the file is on disk, or another second
/// has passed when the total is unknown.
final class ProgressBar: Sendable {
    private struct State {
        var lastDrawn: ContinuousClock.Instant?
        var lastTenth = -1
        var lastLine = ""
    }

    private let terminal = isatty(STDERR_FILENO) == 1
    private let state = Locked(State())

    /// Draws `progress` if it is time to.
    func show(_ progress: TransferProgress) {
        let now = ContinuousClock.now
        let line: String? = state.withLock { state in
            let complete = progress.fractionCompleted == 1
            if terminal {
                if !complete, let last = state.lastDrawn, now - last < .milliseconds(100) { return nil }
                state.lastDrawn = now
                state.lastLine = "\r" + Self.bar(progress.fractionCompleted) + "  " + progress.description + "\u{1B}[K"
                return state.lastLine
            }
            if let fraction = progress.fractionCompleted {
                let tenth = Int(fraction * 10)
                guard tenth > state.lastTenth else { return nil }
                state.lastTenth = tenth
            } else {
                if let last = state.lastDrawn, now - last < .seconds(1) { return nil }
                state.lastDrawn = now
            }
            return progress.description + "\n"
        }
        if let line { Output.error(line) }
    }

    /// Ends the redrawn line, so that what follows starts on a line of its own.
    func finish() {
        if terminal, state.withLock({ !$0.lastLine.isEmpty }) { Output.error("\n") }
    }

    /// `[########------------]` for a fraction, `[~~~~~~~~~~~~~~~~~~~~]` when the total is unknown.
    static func bar(_ fraction: Double?, width: Int = 20) -> String {
        guard let fraction else { return "[" + String(repeating: "~", count: width) + "]" }
        let filled = min(width, max(0, Int(fraction * Double(width))))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }
}
