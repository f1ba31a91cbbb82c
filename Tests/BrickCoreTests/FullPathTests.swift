@testable import BrickCore
import BrickTesting
import Foundation
import Testing

/// The switch that makes every call take every step of the attempt loop (`BRICKREQUEST_FULL_PATH`), under
/// which `make sanitize` runs the whole suite a second time.
@Suite struct FullPathTests {
    @Test func aSessionTakesTheFullPathExactlyWhenTheEnvironmentAsks() {
        let asked = ProcessInfo.processInfo.environment["BRICKREQUEST_FULL_PATH"] != nil
        #expect(Session(transport: StubTransport()).takesFullPath == asked)
        #expect(FullPath.isForced == asked)
    }
}
