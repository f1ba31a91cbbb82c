import Glibc

/// Asks for a password on the terminal, as HTTPie does for `-a USER`: the prompt written to the process's
/// terminal (`/dev/tty`, so that a pipe on standard input or output does not matter) and what is typed read
/// from it with echo off, up to the line's end.
///
/// The terminal is read a key at a time with its signal keys off, so that Ctrl-C is a key this prompt
/// handles rather than a signal that ends the process with echo still off: the terminal's settings are put
/// back, and the command ends as an interrupted one does (status 130). Backspace and Ctrl-U edit the line;
/// Ctrl-D on an empty line gives up.
enum PasswordPrompt {
    /// What the prompt ended with.
    enum Answer: Equatable {
        case typed(String)
        /// Ctrl-C, or Ctrl-D on an empty line.
        case interrupted
        /// The process has no terminal (or reading it failed).
        case noTerminal
    }

    static func ask(for user: String) -> Answer {
        let terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { return .noTerminal }
        defer { close(terminal) }
        var saved = termios()
        guard tcgetattr(terminal, &saved) == 0 else { return .noTerminal }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
        withUnsafeMutableBytes(of: &quiet.c_cc) { keys in
            keys[Int(VMIN)] = 1
            keys[Int(VTIME)] = 0
        }
        guard tcsetattr(terminal, TCSAFLUSH, &quiet) == 0 else { return .noTerminal }
        defer {
            _ = tcsetattr(terminal, TCSAFLUSH, &saved)
            _ = write(terminal, "\n", 1)
        }
        let prompt = Array("password for \(TerminalText.visible(user)): ".utf8)
        _ = prompt.withUnsafeBytes { write(terminal, $0.baseAddress, $0.count) }
        return readLine(terminal)
    }

    /// The line typed on `terminal` (in non-canonical mode), edited by Backspace and Ctrl-U.
    private static func readLine(_ terminal: Int32) -> Answer {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 4096 {
            let count = read(terminal, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return line.isEmpty ? .noTerminal : .typed(String(decoding: line, as: UTF8.self)) }
            switch byte {
            case 0x0A, 0x0D: return .typed(String(decoding: line, as: UTF8.self))
            case 0x03: return .interrupted  // Ctrl-C
            case 0x04 where line.isEmpty: return .interrupted  // Ctrl-D on an empty line
            case 0x04: return .typed(String(decoding: line, as: UTF8.self))
            case 0x7F, 0x08: if !line.isEmpty { line.removeLast() }  // Backspace
            case 0x15: line.removeAll()  // Ctrl-U
            default: line.append(byte)
            }
        }
        return .typed(String(decoding: line, as: UTF8.self))
    }
}
