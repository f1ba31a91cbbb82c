import BrickSystem
import BrickTransport
import Dispatch
import Glibc

/// Ctrl-C (SIGINT) as cancellation: the first one cancels the running work, which ends the way a
/// cancelled request ends (a download keeps its partial file for the next run); a second one exits at once.
enum Interrupt {
    private static let received = Locked(false)

    /// Whether Ctrl-C came while ``cancelling(_:)`` ran.
    static var happened: Bool { received.withLock { $0 } }

    /// Runs `work`, cancelled by Ctrl-C.
    static func cancelling(_ work: @escaping @Sendable () async -> Int32) async -> Int32 {
        let task = Task { await work() }
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            let again = received.withLock { seen in
                defer { seen = true }
                return seen
            }
            if again { exit(130) }
            task.cancel()
        }
        source.resume()
        let status = await task.value
        source.cancel()
        return status
    }
}
