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

    /// Starts `brick arguments…`, for a test that acts while it runs.
    static func start(_ arguments: String...) throws -> PipedChild {
        try PipedChild([try path()] + arguments)
    }

    /// Standard output parsed as JSON.
    static func json(_ outcome: PipedChild.Outcome) throws -> JSON {
        try JSON.parse(Data(outcome.output))
    }
}

/// The shared httpbin, or a failure that says why it could not start.
func httpbin() throws -> Httpbin { try Httpbin.shared.get() }
/// The shared nginx.
func nginx() throws -> Nginx { try Nginx.shared.get() }
