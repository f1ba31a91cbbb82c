import Glibc

extension FaultServer {
    /// What `/events` sends on each connection of a key, written piece by piece: the pieces split a CRLF
    /// between its CR and its LF and a UTF-8 character between its bytes, and mix LF, CR and CRLF line
    /// ends, a comment, a blank line with no data, a multi-line event and a `retry: 300`.
    /// 1. Events 1 to 3, then half of event 4, and the connection drops (a chunked body cut off before its
    ///    last chunk: an error, not an end).
    /// 2. Event 4, whose data tells the `Last-Event-ID` the request carried, and an event with no `id`; the
    ///    body ends cleanly.
    /// 3. and later: `204 No Content`, which ends the events.
    public static let eventPieces: [[String]] = [
        [": a comment\r", "\nretry: 300\r\n\r\n", "id: 1\r\ndata: fir", "st\r", "\n\r\n",
         "event: greeting\nid: 2\ndata: multi\ndata", ": line\n\n",
         "id: 3\rdata: caf\u{E9} \u{1F9F1}\r\r", "id: 4\ndata: never comp"],
        ["id: 4\ndata: resumed after {last-event-id}\n\n", "data: no id here\n", "\n"],
    ]

    /// The events `eventPieces` make, in order, as a client should read them.
    public static let eventsExpected: [(type: String, data: String, id: String)] = [
        ("message", "first", "1"), ("greeting", "multi\nline", "2"), ("message", "caf\u{E9} \u{1F9F1}", "3"),
        ("message", "resumed after 3", "4"), ("message", "no id here", "4"),
    ]

    func serveEvents(_ fd: Int32, lastEventID: String?, arrival: Int) {
        guard arrival <= Self.eventPieces.count else {
            _ = send(fd, "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
            return
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let chunked = arrival == 1
        let framing = chunked ? "Transfer-Encoding: chunked\r\n" : "Connection: close\r\n"
        guard send(fd, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\(framing)\r\n")
        else { return }
        func write(_ bytes: [UInt8]) -> Bool {
            guard chunked else { return sendBytes(fd, bytes) }
            return sendBytes(fd, Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + [13, 10])
        }
        for piece in Self.eventPieces[arrival - 1] {
            let text = piece.replacing("{last-event-id}", with: lastEventID ?? "none")
            var bytes = Array(text.utf8)
            // Split the UTF-8 of the brick emoji (4 bytes) after its second byte.
            if let start = bytes.firstIndex(of: 0xF0) {
                guard write(Array(bytes[..<(start + 2)])) else { return }
                usleep(2000)  // the fault itself: a server that sends in pieces
                bytes = Array(bytes[(start + 2)...])
            }
            guard write(bytes) else { return }
            usleep(2000)
        }
    }
}
