import BrickRequest
import Foundation
import TestServers
import Testing

/// Allocations per request, counted, not timed (as swift-nio keeps its allocation counters): a sequential GET
/// through the brick path and through the libcurl transport alone, against nginx, each in a process of
/// its own with an allocation counter preloaded. Each figure is (count for 450 requests − count for 50) / 400,
/// so that start-up and warm-up cancel out. The bounds are this (debug) build's counts plus half an allocation
/// (they vary by a few hundredths between runs): a change that adds an allocation to every request fails
/// here. A debug build allocates more than a release build does (unspecialized generics, closure
/// contexts); `make instructions` gives the release figures (Docs/Performance.md).
@Suite struct AllocationTests {
    /// The most allocations one request may make, in a debug build: a call through its session's chain
    /// (the call itself is one of them), and the transport alone.
    static let bounds = [
        "full": 70.5,
        "transport": 63.5,
    ]

    @Test(arguments: ["full", "transport"])
    func aSequentialGetAllocatesNoMoreThanItsBound(path: String) async throws {
        let directory = try Paths.scratchDirectory("allocations-\(path)")
        defer { Paths.removeTree(directory) }
        let counter = directory + "/alloc-count.so"
        let compilers = ["/opt/swift/usr/bin/clang", "/usr/bin/clang", "/usr/bin/cc"]
        let compiler = try #require(compilers.first { FileManager.default.isExecutableFile(atPath: $0) }, "a C compiler builds the allocation counter")
        let built = try await PipedChild.run([compiler, "-O2", "-shared", "-fPIC", Paths.repository + "/Tests/AllocationCounter/alloc-count.c", "-o", counter])
        #expect(built.status == 0, "\(built.error)")
        let probe = try #require(Paths.builtProduct("TransferProbe"))
        let url = try Nginx.shared.get().url("/small")
        func allocations(_ count: Int) async throws -> Double {
            let file = directory + "/count-\(count)"
            let run = try await PipedChild.run(
                [probe, "allocations", path, url, "\(count)"], environment: ["LD_PRELOAD": counter, "ALLOC_COUNT_FILE": file])
            #expect(run.status == 0 && run.text.contains("\"failures\": 0"), "\(run.text) \(run.error)")
            return try #require(Double(Paths.read(file).trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        let perRequest = (try await allocations(450) - (try await allocations(50))) / 400
        print("allocations per sequential GET (\(path), debug build): \(perRequest)")
        #expect(perRequest <= Self.bounds[path] ?? 0, "\(perRequest) allocations per request, bound \(Self.bounds[path] ?? 0)")
    }
}
