import BrickRequest
import Foundation
import Glibc

/// Downloads one URL to one file with `download(to:)` and prints the outcome as one JSON line.
///
/// `download-probe URL DESTINATION [DIE_AFTER_BYTES]`: with a byte count, the process kills itself with
/// SIGKILL as soon as that many bytes are on disk, leaving the partial file as a crash would; a second run
/// must resume it.
final class Fetch: Component, GETRequestType, APISessionRequestType, AbsoluteURLType {
    let path: String
    init(_ url: String) {
        path = url
        super.init()
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: download-probe URL DESTINATION [DIE_AFTER_BYTES]\n".utf8))
    exit(2)
}
let dieAfter = arguments.count > 3 ? Int64(arguments[3]) : nil
do {
    let result = try await Fetch(arguments[1]).download(to: URL(fileURLWithPath: arguments[2])) { progress in
        if let dieAfter, progress.completed >= dieAfter { kill(getpid(), SIGKILL) }
    }
    print(#"{"length": \#(result.length), "resumedFrom": \#(result.resumedFrom), "restarted": \#(result.restarted), "status": \#(result.head.status)}"#)
} catch {
    print(#"{"error": "\#(error)"}"#)
    exit(1)
}
