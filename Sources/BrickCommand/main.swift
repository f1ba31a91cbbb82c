import BrickRequest
import Glibc

// `brick`: one HTTP request from the command line, through the library (Usage.swift has the syntax).
signal(SIGPIPE, SIG_IGN)  // a reader that goes away (`brick … | head`) ends the output, not the process
let invocation: Invocation
do {
    invocation = try Invocation(parsing: Array(CommandLine.arguments.dropFirst()), standardInput: StandardInput.read)
} catch {
    Output.error("brick: \(error)\n(brick --help tells how)\n")
    exit(2)
}
switch invocation.action {
case .help: Output.text(Usage.text)
case .version: Output.text("brick \(Session.version), \(CurlTransport.libcurlVersion)\n")
case .printSwift: Output.text(SwiftSource(invocation: invocation).text)
case .send:
    let status = await Interrupt.cancelling {
        if let path = invocation.download { await Call.download(invocation, to: path) } else { await Call.send(invocation) }
    }
    exit(status)
}
