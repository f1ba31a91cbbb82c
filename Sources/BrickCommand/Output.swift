import FoundationEssentials
import Glibc

/// Writes to standard output (the body) and standard error (everything about it), unbuffered, so that
/// the two interleave as they happen and a body is never mixed into a line of text.
enum Output {
    static func body(_ data: Data) { write(STDOUT_FILENO, data) }
    static func text(_ text: String) { write(STDOUT_FILENO, Data(text.utf8)) }
    static func error(_ text: String) { write(STDERR_FILENO, Data(text.utf8)) }

    private static func write(_ descriptor: Int32, _ data: Data) {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // a closed pipe (`brick … | head`): nothing more to say
                }
                offset += written
            }
        }
    }
}
