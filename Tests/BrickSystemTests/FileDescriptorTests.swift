import BrickSystem
import Foundation
import Glibc
import Testing

/// The file calls the library's files at rest go through: unique temporary files, whole reads that never
/// follow a planted link.
@Suite struct FileDescriptorTests {
    static func scratch() throws -> String {
        let directory = NSTemporaryDirectory() + "brick-fd-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        return directory
    }

    /// No spawned process can inherit a temporary file: it is close-on-exec from the call that makes it.
    @Test func aUniqueFileIsOwnerOnlyCloseOnExecAndNew() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var paths: Set<String> = []
        for _ in 0..<20 {
            let (file, path) = try FileDescriptor.makeUnique(directory + "/body-XXXXXX").get()
            defer { file.close() }
            #expect(fcntl(file.raw, F_GETFD) & FD_CLOEXEC != 0)
            #expect(path.hasPrefix(directory + "/body-") && path.count == directory.count + 12)
            #expect(Paths.linkStatus(of: path)?.permissions == 0o600)
            paths.insert(path)
        }
        #expect(paths.count == 20)
        #expect(throws: SystemError.self) { try FileDescriptor.makeUnique(directory + "/no-template").get() }
    }

    @Test func aWholeReadRefusesALinkAFIFOAndAFileOverItsLimit() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "secret".write(toFile: directory + "/target", atomically: false, encoding: .utf8)
        #expect(try FileDescriptor.readWhole(directory + "/target", limit: 100).get() == Array("secret".utf8))
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: directory + "/target")
        #expect(throws: SystemError.self) { try FileDescriptor.readWhole(directory + "/link", limit: 100).get() }
        mkfifo(directory + "/fifo", 0o600)
        #expect(throws: SystemError.self) { try FileDescriptor.readWhole(directory + "/fifo", limit: 100).get() }
        #expect(throws: SystemError.self) { try FileDescriptor.readWhole(directory + "/target", limit: 5).get() }
        #expect(Paths.linkStatus(of: directory + "/link")?.isSymbolicLink == true)
        #expect(Paths.linkStatus(of: directory + "/target")?.isOwnAndUnwritableByOthers == true)
    }
}
