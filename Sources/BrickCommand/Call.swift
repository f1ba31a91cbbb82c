import BrickRequest
import BrickTransport
import FoundationEssentials
import Glibc

/// Sends a command line's request and prints what came back; returns the exit status.
enum Call {
    static func send(_ invocation: Invocation, session: Session) async -> Int32 {
        let outcome = await CommandRequest(invocation, session: session).dataResponse()
        let redirects = (outcome.response ?? outcome.error?.response)?.redirects ?? []
        if invocation.verbose { Output.error(HeadLines.lines(for: outcome.attempts, redirects: redirects).map { $0 + "\n" }.joined()) }
        let terminal = isatty(STDOUT_FILENO) == 1
        let shown = invocation.shown ?? .byDefault(terminal: terminal)
        let printed = Printed(palette: .forStandardOutput, terminal: terminal, pretty: invocation.pretty ?? terminal)
        if let sent = outcome.attempts.last?.request {
            if shown.requestHead { Output.text(printed.requestHead(sent)) }
            if shown.requestBody { Output.body(printed.requestBody(sent)) }
        }
        // A status outside 2xx fails validation, with the response kept: printed all the same.
        if let response = outcome.response ?? outcome.error?.response {
            // An answer outside 2xx says so on standard error, as `curl -f` does, unless its head is shown.
            if !(200..<300).contains(response.head.status), !invocation.verbose, !shown.responseHead {
                Output.error(HeadLines.statusLine(response.head) + "\n")
            }
            if shown.responseHead { Output.text(printed.responseHead(response.head)) }
            if shown.responseBody { Output.body(printed.body(response.body, contentType: response.head.headers["Content-Type"])) }
        }
        if invocation.timing { timing(outcome.metrics?.waterfall, outcome.timeline) }
        if let response = outcome.response ?? outcome.error?.response { return status(response.head.status) }
        return outcome.error.map(failed) ?? 1
    }

    static func download(_ invocation: Invocation, to path: String, session: Session) async -> Int32 {
        let bar = invocation.quiet ? nil : ProgressBar()
        do throws(BrickError) {
            let result = try await CommandRequest(invocation, session: session).download(to: URL(fileURLWithPath: path)) { bar?.show($0) }
            bar?.finish()
            if invocation.verbose { Output.error(HeadLines.lines(for: result.attempts).map { $0 + "\n" }.joined()) }
            var summary = "saved \(path): \(ByteCount.text(result.length))"
            if result.resumedFrom > 0 { summary += ", resumed from \(ByteCount.text(result.resumedFrom))" }
            if result.restarted { summary += ", fetched again from the start (the file had changed)" }
            if !invocation.quiet { Output.error(summary + "\n") }
            if invocation.timing { timing(nil, result.timeline) }
            return 0
        } catch {
            bar?.finish()
            if Interrupt.happened {
                var partial = stat()
                let kept = stat(path + ".part", &partial) == 0 ? Int64(partial.st_size) : 0
                Output.error("interrupted: \(ByteCount.text(kept)) kept in \(path).part; \(ResumeOutlook.of(destination: path).words)\n")
                return 130
            }
            if let response = error.response {
                Output.error(HeadLines.statusLine(response.head) + "\n" + "brick: \(TerminalText.visible("\(error)"))\n")
                return status(response.head.status)
            }
            return failed(error)
        }
    }

    private static func timing(_ waterfall: String?, _ timeline: String) {
        if let waterfall { Output.error("timing: \(waterfall)\n") }
        Output.error("attempts: \(timeline)\n")
    }

    private static func failed(_ error: BrickError) -> Int32 {
        if Interrupt.happened || error.isCancelled {
            Output.error("brick: interrupted\n")
            return 130
        }
        let hint = error.transportError?.kind == .tooManyRedirects ? " (--max-redirects N follows more)" : ""
        Output.error("brick: \(TerminalText.visible("\(error)"))\(hint)\n")
        return 1
    }

    /// 0 for 1xx to 3xx, 4 and 5 for 4xx and 5xx, 1 for anything else.
    private static func status(_ code: Int) -> Int32 {
        switch code {
        case 100..<400: 0
        case 400..<500: 4
        case 500..<600: 5
        default: 1
        }
    }
}
