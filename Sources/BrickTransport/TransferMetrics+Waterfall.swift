extension TransferMetrics {
    /// Where the time went, on one line: `DNS 0.3 ms │ connect 0.1 ms │ TLS 4.2 ms │ server 12.0 ms │
    /// transfer 0.4 ms` — the phases of a new connection, or `reused connection │ server … │ transfer …`.
    ///
    /// *server* is the time from sending the request to the first byte of the answer; *transfer* the time
    /// from there to the end; a phase that did not happen (no TLS over plain HTTP) is left out.
    public var waterfall: String {
        var phases: [String] = []
        if reusedConnection {
            phases.append("reused connection")
        } else {
            phases.append("DNS \(dns.brief)")
            phases.append("connect \(connect.brief)")
            if tls > .zero { phases.append("TLS \(tls.brief)") }
        }
        phases.append("server \(waiting.brief)")
        phases.append("transfer \((total > firstByte ? total - firstByte : .zero).brief)")
        if redirectCount > 0 { phases.append("\(redirectCount) redirect\(redirectCount == 1 ? "" : "s")") }
        return phases.joined(separator: " │ ")
    }
}
