import BrickCassette
import BrickRequest
import Glibc

// `brick`: one HTTP request from the command line, through the library (Usage.swift has the syntax).
signal(SIGPIPE, SIG_IGN)  // a reader that goes away (`brick … | head`) ends the output, not the process
var invocation: Invocation
let saved: SavedSession?
do {
    invocation = try Invocation(
        parsing: Array(CommandLine.arguments.dropFirst()), standardInput: StandardInput.read,
        password: { user in
            switch PasswordPrompt.ask(for: user) {
            case .typed(let password): return password
            case .noTerminal: return nil
            case .interrupted: exit(130)  // Ctrl-C at the prompt: the terminal is as it was
            }
        })
    saved = invocation.action == .send ? try invocation.session.map { name throws(UsageError) in try SavedSession(name: name, url: invocation.url) } : nil
} catch {
    Output.error("brick: \(error)\n(brick --help tells how)\n")
    exit(2)
}
switch invocation.action {
case .help: Output.text(Usage.text)
case .version: Output.text("brick \(Session.version), \(CurlTransport.libcurlVersion)\n")
case .completion(let shell): Output.text(Completion.script(for: shell))
case .printSwift: Output.text(SwiftSource(invocation: invocation).text)
case .send where invocation.webSocket:
    var configuration = Session.Configuration()
    configuration.reachability = UnknownReachability()
    let session = Session(configuration: configuration), sent = invocation
    exit(await Interrupt.cancelling { await WebSocketCall.run(sent, session: session) })
case .send:
    if let saved { invocation.headers = saved.merged(with: invocation.headers) }
    var configuration = Session.Configuration()
    configuration.cookies = saved?.cookies
    // Without retry rules nothing waits for the route, so a one-shot call does not start the netlink monitor.
    if invocation.retry == .none { configuration.reachability = UnknownReachability() }
    let cassette = invocation.har.map { Cassette(recordingTo: $0, redaction: invocation.harSecrets ? .none : CassetteRedaction()) }
    let session = cassette.map { $0.session(like: Session(configuration: configuration)) } ?? Session(configuration: configuration)
    let sent = invocation
    let status = await Interrupt.cancelling {
        if let path = sent.download { await Call.download(sent, to: path, session: session) } else { await Call.send(sent, session: session) }
    }
    do throws(UsageError) {
        try saved?.save(sent.headers)
    } catch {
        Output.error("brick: \(error)\n")
    }
    do throws(CassetteError) {
        try cassette?.save()
    } catch {
        Output.error("brick: \(error)\n")
        exit(status == 0 ? 1 : status)
    }
    exit(status)
}
