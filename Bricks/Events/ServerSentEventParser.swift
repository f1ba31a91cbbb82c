import BrickTransport

/// Reads a `text/event-stream` body chunk by chunk, as the WHATWG EventSource rules do: lines end with
/// CRLF, LF or CR (also when a chunk ends between CR and LF); `data` lines are joined with line feeds;
/// `event`, `id` and `retry` set the type, the last event ID and the reconnection time; comments (`:`)
/// and unknown fields are ignored; a leading byte order mark is skipped; text is UTF-8, decoded only once
/// a line is complete, so a character split across chunks arrives whole. An event is dispatched at a
/// blank line; one left unfinished when the connection ends is dropped.
///
/// A server cannot make it hold unbounded memory: a line, or an event's data, longer than `maxEventSize`
/// bytes fails the stream. An `id:` that could not go back as `Last-Event-ID` (a control byte, or more than
/// ``maxIDSize`` bytes) is ignored, so a reconnection sends the last good one.
public struct ServerSentEventParser: Sendable {
    /// The ID of the latest event dispatched (the `id:` field in force when it was): what a reconnection
    /// sends as `Last-Event-ID`. An `id:` of an event that never completed does not count.
    public private(set) var lastEventID = ""
    /// The latest `retry:` the server asked for, at most one day.
    public private(set) var reconnectionTime: Duration?
    /// The longest line or event data accepted, in bytes.
    public let maxEventSize: Int

    /// The latest `id:` read, which becomes ``lastEventID`` when the next event is dispatched.
    private var idBuffer = ""
    private var line: [UInt8] = []
    private var afterCR = false
    private var atStart = true
    private var type = ""
    private var data: [UInt8] = []
    private var hasData = false

    /// A parser for one stream; `maxEventSize` defaults to 1 MiB.
    public init(maxEventSize: Int = 1 << 20) {
        self.maxEventSize = max(1, maxEventSize)
    }

    /// The events that `chunk` completes, in order.
    /// - Throws: `TransportError` of kind `responseTooLarge` for a line or an event over ``maxEventSize``.
    public mutating func feed(_ chunk: some Sequence<UInt8>) throws(TransportError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in chunk {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }  // the LF of a CRLF, perhaps in the next chunk
            }
            switch byte {
            case 0x0D:
                afterCR = true
                if let event = try endLine() { events.append(event) }
            case 0x0A:
                if let event = try endLine() { events.append(event) }
            default:
                guard line.count < maxEventSize else {
                    throw TransportError(.responseTooLarge, message: "a server-sent event line passed \(maxEventSize) bytes")
                }
                line.append(byte)
            }
        }
        return events
    }

    /// Forgets a connection's unfinished line and event (an `id:` among them), before the next
    /// connection's body; ``lastEventID`` and the reconnection time stay.
    public mutating func connectionEnded() {
        idBuffer = lastEventID
        line.removeAll(keepingCapacity: true)
        afterCR = false
        atStart = true
        type = ""
        data.removeAll(keepingCapacity: true)
        hasData = false
    }

    private mutating func endLine() throws(TransportError) -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        var bytes = line[...]
        if atStart {
            atStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        if bytes.isEmpty { return dispatch() }
        if bytes.first == UInt8(ascii: ":") { return nil }
        let colon = bytes.firstIndex(of: UInt8(ascii: ":"))
        let name = bytes[..<(colon ?? bytes.endIndex)]
        var value = colon.map { bytes[bytes.index(after: $0)...] } ?? bytes[bytes.endIndex...]
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        switch String(decoding: name, as: UTF8.self) {
        case "event": type = String(decoding: value, as: UTF8.self)
        case "data":
            guard data.count + value.count < maxEventSize else {
                throw TransportError(.responseTooLarge, message: "a server-sent event's data passed \(maxEventSize) bytes")
            }
            if hasData { data.append(0x0A) }
            data += value
            hasData = true
        case "id" where Self.canBeSent(value): idBuffer = String(decoding: value, as: UTF8.self)
        case "retry" where !value.isEmpty && value.count <= 12 && value.allSatisfy({ (0x30...0x39).contains($0) }):
            let milliseconds = value.reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) }  // at most 12 digits: no overflow
            reconnectionTime = .milliseconds(min(milliseconds, 86_400_000))
        default: break
        }
        return nil
    }

    /// The longest `id:` kept, in bytes: it goes back to the server in a header field.
    public static let maxIDSize = 1024

    /// Whether an `id:` value can go out as `Last-Event-ID`: at most ``maxIDSize`` bytes, with no control
    /// byte (NUL, CR, LF and the rest). One that cannot is ignored, so the last good one stays.
    static func canBeSent(_ value: ArraySlice<UInt8>) -> Bool {
        value.count <= maxIDSize && !value.contains { $0 < 0x20 || $0 == 0x7F }
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            type = ""
            data.removeAll(keepingCapacity: true)
            hasData = false
        }
        lastEventID = idBuffer  // also for a blank line with no data, as the WHATWG rules say
        guard hasData else { return nil }
        return ServerSentEvent(type: type.isEmpty ? "message" : type, data: String(decoding: data, as: UTF8.self), id: lastEventID)
    }
}
