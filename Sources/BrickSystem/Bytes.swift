#if canImport(Glibc)
public import Glibc
#else
#error("BrickSystem reaches the operating system through Glibc: another system needs its own branch here")
#endif

/// Whether `bytes` holds `byte`: the C library's `memchr`, which compares many bytes at a time (the engine
/// asks it of every header line). Inlinable, so that the engine calls `memchr` itself.
@inlinable
package func containsByte(_ byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Bool {
    guard let start = bytes.baseAddress else { return false }
    return memchr(start, Int32(byte), bytes.count) != nil
}

/// Where the first `byte` stands in `bytes[from..<to]` (an offset into `bytes`), or `nil`: `memchr`, for
/// scans of header lines that would otherwise go byte by byte.
@inlinable
package func offsetOfByte(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
    guard from < to, to <= bytes.count, let base = bytes.baseAddress, let found = memchr(base + from, Int32(byte), to - from) else { return nil }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
}

/// Whether the C string `string` holds exactly `bytes` (which hold no NUL): its length first, by the C
/// library's `strlen`, so that no byte past its end is read, then `memcmp`.
@inlinable
package func cString(_ string: UnsafePointer<CChar>, equals bytes: UnsafeRawBufferPointer) -> Bool {
    guard strlen(string) == bytes.count else { return false }
    guard let start = bytes.baseAddress else { return true }
    return memcmp(string, start, bytes.count) == 0
}
