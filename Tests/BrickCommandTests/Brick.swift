import BrickRequest
import Foundation
import Testing
import TestServers

/// The built `brick` command (Sources/BrickCommand), run in a process of its own as a user runs it.
enum Brick {
    static func path() throws -> String {
        try #require(Paths.builtProduct("brick"), "the brick command is built beside the tests (swift build --build-tests)")
    }

    /// Runs `brick arguments…` to its end.
    static func run(_ arguments: String...) async throws -> PipedChild.Outcome {
        try await PipedChild.run([try path()] + arguments)
    }

    /// Runs `brick arguments…` to its end with standard output on a terminal, as at a prompt, and `environment`
    /// added to the test's; the terminal's `\r\n` are read back as `\n`.
    static func onTerminal(_ arguments: String..., environment: [String: String] = [:]) async throws -> PipedChild.Outcome {
        try await PipedChild.run([try path()] + arguments, environment: environment, terminal: true).withPlainNewlines
    }

    /// Runs `brick arguments…` to its end with `environment` added to the test's.
    static func run(_ arguments: String..., environment: [String: String]) async throws -> PipedChild.Outcome {
        try await PipedChild.run([try path()] + arguments, environment: environment)
    }

    /// Starts `brick arguments…`, for a test that acts while it runs.
    static func start(_ arguments: String...) throws -> PipedChild {
        try PipedChild([try path()] + arguments)
    }

    /// Standard output parsed as JSON.
    static func json(_ outcome: PipedChild.Outcome) throws -> JSON {
        try JSON.parse(Data(outcome.output))
    }
}

extension PipedChild.Outcome {
    /// Standard output with each `\r\n` a terminal wrote read as `\n`.
    var withPlainNewlines: PipedChild.Outcome {
        var plain: [UInt8] = []
        for (index, byte) in output.enumerated() where !(byte == 0x0D && output.indices.contains(index + 1) && output[index + 1] == 0x0A) {
            plain.append(byte)
        }
        return PipedChild.Outcome(status: status, output: plain, error: error)
    }
}

/// The shared httpbin, or a failure that says why it could not start.
func httpbin() throws -> Httpbin { try Httpbin.shared.get() }

/// A file's permission bits.
func mode(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? Int)
}
/// The shared nginx.
func nginx() throws -> Nginx { try Nginx.shared.get() }
