import Glibc

/// Asks for a password on the terminal, as HTTPie does for `-a USER`: the prompt written to the process's
/// terminal (`/dev/tty`, so that a pipe on standard input or output does not matter) and what is typed read
/// from it with echo off, up to the line's end.
enum PasswordPrompt {
    /// The password typed for `user`, or `nil` when the process has no terminal (or reading it failed).
    static func ask(for user: String) -> String? {
        let terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { return nil }
        defer { close(terminal) }
        var saved = termios()
        guard tcgetattr(terminal, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        guard tcsetattr(terminal, TCSAFLUSH, &quiet) == 0 else { return nil }
        defer {
            _ = tcsetattr(terminal, TCSAFLUSH, &saved)
            _ = write(terminal, "\n", 1)
        }
        let prompt = Array("password for \(TerminalText.visible(user)): ".utf8)
        _ = prompt.withUnsafeBytes { write(terminal, $0.baseAddress, $0.count) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 4096 {
            let count = read(terminal, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1, byte != UInt8(ascii: "\n") else { break }
            line.append(byte)
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
