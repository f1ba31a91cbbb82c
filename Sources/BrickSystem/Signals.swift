#if canImport(Glibc)
import Glibc
#else
#error("BrickSystem reaches the operating system through Glibc: another system needs its own branch here")
#endif

/// Blocks SIGPIPE on the calling thread: a write to a socket the peer reset raises it for the writing thread.
/// Blocked, it stays pending on this thread, which drops it when it ends, instead of killing the process; the
/// rest of the process keeps its own disposition, and so do the programs it spawns.
package func blockBrokenPipeSignalsOnThisThread() {
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &signals, nil)
}
