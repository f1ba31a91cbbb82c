#if canImport(Glibc)
public import Glibc
#else
#error("BrickSystem reaches the operating system through Glibc: another system needs its own branch here")
#endif

/// Starts a detached POSIX thread named `name` that runs `body(true)`: the engine, the reachability monitor
/// and the loopback servers of tests each run on one. The thread owns `body` (and what it captured) alone.
/// If no thread can be started, `body(false)` runs at once on the calling thread instead, to free what it
/// captured.
///
/// - Parameter name: Shown by `top -H`, `ps -L` and debuggers; at most 15 bytes are kept.
/// - Returns: 0, or the errno `pthread_create` failed with.
package func startDetachedThread(named name: String, _ body: sending @escaping (_ onNewThread: Bool) -> Void) -> Int32 {
    switch startThread(named: name, body) {
    case .success(let thread):
        thread.detach()
        return 0
    case .failure(let error): return error.code
    }
}

/// The errno `pthread_create` failed with.
package struct ThreadStartError: Error {
    package let code: Int32
}

/// Starts a joinable POSIX thread named `name` that runs `body(true)`, as ``startDetachedThread(named:_:)``
/// does; the caller must join or detach it.
/// - Returns: The thread, or the errno `pthread_create` failed with.
package func startThread(
    named name: String, _ body: sending @escaping (_ onNewThread: Bool) -> Void
) -> Result<JoinableThread, ThreadStartError> {
    final class Start {
        let body: (Bool) -> Void
        init(_ body: @escaping (Bool) -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Start(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { context in
        guard let context else { return nil }
        let start = Unmanaged<Start>.fromOpaque(context).takeRetainedValue()
        start.body(true)
        return nil
    }, context)
    guard result == 0 else {
        Unmanaged<Start>.fromOpaque(context).takeRetainedValue().body(false)
        return .failure(ThreadStartError(code: result))
    }
    // Named here, by its creator, while it is still joinable (its handle valid): named by itself, it bore its
    // creator's name until it first ran, which on a busy machine can be after its creator looked.
    setName(of: thread, to: name)
    return .success(JoinableThread(thread: thread))
}

/// Names `thread` through glibc's `pthread_setname_np`, looked up at run time (Glibc's Swift module leaves out
/// the GNU extensions); a name longer than 15 bytes is cut.
private func setName(of thread: pthread_t, to name: String) {
    typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_setname_np") else { return }
    let setName = unsafeBitCast(symbol, to: SetName.self)
    _ = setName(thread, String(decoding: name.utf8.prefix(15), as: UTF8.self))
}

/// The calling thread's identity (`pthread_self`), to compare with a thread's own: what an engine-bound value
/// checks on every access. Inlinable, so that a check is the `pthread_self` call and a compare, not a call
/// into this module first.
@inlinable @inline(__always)
package func currentThreadID() -> UInt { UInt(pthread_self()) }

/// A started thread that has not been detached: someone joins it (waits for it to end) or detaches it,
/// once.
package struct JoinableThread: Sendable {
    fileprivate let thread: pthread_t

    /// Waits until the thread has ended.
    package func join() { pthread_join(thread, nil) }

    /// Lets the thread end on its own; nobody will join it.
    package func detach() { pthread_detach(thread) }
}
