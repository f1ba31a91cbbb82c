import BrickRequest
import Foundation
import Testing
import TestServers

/// `brick --completion bash|zsh|fish`, loaded into the real shells (installed by the setup) and asked to complete.
@Suite struct CommandCompletionTests {
    /// Runs `script` with `shell -c` and the completion script in `$COMPLETION`.
    private func run(_ shell: String, _ script: String) async throws -> String {
        let outcome = try await PipedChild.run([shell, "-c", script], environment: ["BRICK": try Brick.path()])
        #expect(outcome.status == 0, "\(shell): \(outcome.error)")
        return outcome.text
    }

    @Test func bashCompletesOptionsTheirValuesAndMethods() async throws {
        func complete(_ words: String, at index: Int) async throws -> String {
            try await run("/bin/bash", "source <(\"$BRICK\" --completion bash); COMP_WORDS=(\(words)); COMP_CWORD=\(index); _brick; echo \"${COMPREPLY[*]}\"")
        }
        #expect(try await complete("brick --ret", at: 1) == "--retry\n")
        #expect(try await complete("brick --retry s", at: 2) == "soft\n")
        #expect(try await complete("brick --auth-type b", at: 2) == "basic bearer\n")
        #expect(try await complete("brick PA", at: 1) == "PATCH\n")
        #expect(try await complete("brick --se", at: 1) == "--session\n")
    }

    @Test func fishCompletesOptionsAndTheirValues() async throws {
        func complete(_ line: String) async throws -> [String] {
            let text = try await run("/usr/bin/fish", "\"$BRICK\" --completion fish | source; complete -C'\(line)'")
            return text.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try await complete("brick --ret") == ["--retry"])
        #expect(try await complete("brick --retry ") == ["hard", "none", "soft"])
        #expect(try await complete("brick --completion z") == ["zsh"])
    }

    @Test func zshReadsItsScriptAndEveryScriptNamesEveryOptionOfTheHelp() async throws {
        let scratch = try Paths.scratchDirectory("completion")
        defer { Paths.removeTree(scratch) }
        let zsh = try await Brick.run("--completion", "zsh")
        try Paths.write(zsh.text, to: scratch + "/_brick")
        _ = try await run("/usr/bin/zsh", "zsh -n \(scratch)/_brick")  // the syntax holds
        #expect(zsh.text.hasPrefix("#compdef brick\n"))

        let help = try await Brick.run("--help")
        let documented = Set(help.text.matches(of: /--[a-z][a-z-]+/).map { String($0.output) })
        #expect(documented.count >= 20, "\(documented)")
        for shell in ["bash", "zsh", "fish"] {
            let script = try await Brick.run("--completion", shell).text
            let named = Set(script.matches(of: /--[a-z][a-z-]+/).map { String($0.output) })
            let longFish = Set(script.matches(of: /-l ([a-z-]+)/).map { "--" + $0.output.1 })
            let covered = shell == "fish" ? longFish : named
            #expect(documented.subtracting(covered).isEmpty, "\(shell) lacks \(documented.subtracting(covered))")
        }
    }
}
