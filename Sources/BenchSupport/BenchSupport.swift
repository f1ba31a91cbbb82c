import Glibc

// What every benchmark client of this package shares: the CPU clock, the referee's RESULT line, stderr.

/// CPU time (user + system) used by the process so far, in seconds, and its peak resident set in KiB.
public func cpuSeconds() -> (seconds: Double, maxRSS: Int) {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let seconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    return (seconds, usage.ru_maxrss)
}

/// Prints the benchmark referee's line (the format every client of a side-by-side run prints):
/// `RESULT client=… scenario=… n=… bytes=… wall_s=… cpu_s=… maxrss_kb=… errors=…`.
public func printResult(
    client: String, scenario: String, count: Int, bytes: Int64, wall: Duration, cpu: Double, maxRSS: Int, errors: Int,
    extra: String = ""
) {
    let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
    print("RESULT client=\(client) scenario=\(scenario) n=\(count) bytes=\(bytes) wall_s=\(format6(wallSeconds)) "
        + "cpu_s=\(format6(cpu)) maxrss_kb=\(maxRSS) errors=\(errors)" + extra)
}

/// `value` with six decimals, as the C clients print it.
func format6(_ value: Double) -> String {
    let micros = Int((value * 1e6).rounded())
    let fraction = String(micros % 1_000_000)
    return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
}

/// Writes a line to standard error.
public func warn(_ line: String) {
    let text = line + "\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
}

/// Whether `BENCH_MAIN_SLEEPS=1`: the scenario runs in a detached task while the main thread sleeps, so that
/// valgrind (3.19, which stops inside libdispatch's wait on the main queue) can run the client (`make
/// instructions`).
public let mainThreadSleeps: Bool = {
    guard let value = getenv("BENCH_MAIN_SLEEPS") else { return false }
    return String(cString: value) == "1"
}()

/// Runs `scenario` in a detached task and sleeps on the main thread until it exits the process.
public func runDetachedWhileMainSleeps(_ scenario: @escaping @Sendable () async -> Never) -> Never {
    Task.detached { await scenario() }
    while true { sleep(3600) }
}
