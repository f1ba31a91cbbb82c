#if !Postgres
#error("BrickQueuePostgres needs the package trait Postgres: .package(url: …, from: …, traits: [\"Postgres\"]), or swift build --enable-all-traits in this repository")
#endif

#if Postgres  // the package trait that brings this module's system library, libpq (Package.swift)
public import BrickQueue
import BrickSystem
import CLibPQ

/// A PostgreSQL database as libpq reaches it: a connection string, either `key=value` pairs
/// (`host=db.internal dbname=app user=deliverer sslmode=verify-full`) or a URI
/// (`postgresql://deliverer@db.internal/app?sslmode=verify-full`), completed by the `PG*` environment
/// variables (`PGHOST`, `PGPASSWORD`, `PGSSLMODE`, …) and `~/.pgpass` exactly as libpq completes it.
///
/// Its ``description`` names the user, host, port and database, never the password; error messages have
/// the password taken out.
public struct PostgresDatabase: Sendable, CustomStringConvertible, CustomReflectable {
    /// The connection string as given (it may hold the password: never printed).
    let connectionString: String
    /// The password the string or `PGPASSWORD` holds, to take out of messages.
    let password: String?
    /// The user, host, port and database, as a URI without the password.
    public let description: String
    /// Whether the string or `PGCONNECT_TIMEOUT` sets how long a connection may take.
    let namesConnectTimeout: Bool

    /// Checks `connectionString` with libpq's own parser, without connecting.
    /// - Throws: `QueueError.connection(_:)` naming what is malformed (never the password).
    public init(_ connectionString: String) throws(QueueError) {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connectionString, &message) else {
            let text = message.map { String(cString: $0) } ?? "out of memory"
            PQfreemem(message)
            throw .connection("the connection string is malformed: \(Self.withoutQuotedParts(text, of: connectionString))")
        }
        defer { PQconninfoFree(options) }
        var given: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { given[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        self.connectionString = connectionString
        password = given["password"] ?? environmentValue("PGPASSWORD")
        description = Self.describe(given)
        namesConnectTimeout = given["connect_timeout"] != nil || environmentValue("PGCONNECT_TIMEOUT") != nil
    }

    /// The URI form of what was given (or what the environment gives), without the password.
    private static func describe(_ given: [String: String]) -> String {
        func value(_ key: String, _ variable: String) -> String? { given[key].flatMap { $0.isEmpty ? nil : $0 } ?? environmentValue(variable) }
        let user = value("user", "PGUSER").map { $0 + "@" } ?? ""
        let host = value("host", "PGHOST") ?? ""
        let port = value("port", "PGPORT").map { ":" + $0 } ?? ""
        let name = value("dbname", "PGDATABASE").map { "/" + $0 } ?? ""
        let mode = value("sslmode", "PGSSLMODE").map { "?sslmode=" + $0 } ?? ""
        return "postgresql://\(user)\(host.hasPrefix("/") ? "[\(host)]" : host)\(port)\(name)\(mode)"
    }

    /// libpq quotes the part of a connection string it cannot read, which may be (or hold) the password:
    /// every quoted part that comes from the string is left out.
    private static func withoutQuotedParts(_ message: String, of connectionString: String) -> String {
        let parts = message.split(separator: "\"", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return message.trimmed }
        var kept = ""
        for (index, part) in parts.enumerated() {
            let quoted = index % 2 == 1
            kept += quoted ? (connectionString.contains(part) && !Self.keywords.contains(String(part)) ? "\"…\"" : "\"\(part)\"") : String(part)
        }
        return kept.trimmed
    }

    /// The option names libpq knows (quoting one of them gives nothing away).
    private static let keywords: Set<String> = {
        guard let defaults = PQconndefaults() else { return [] }
        defer { PQconninfoFree(defaults) }
        var names: Set<String> = []
        var option = defaults
        while let keyword = option.pointee.keyword {
            names.insert(String(cString: keyword))
            option += 1
        }
        return names
    }()

    /// What `dump` and debuggers show: the ``description`` alone, never the connection string or the
    /// password (a queue made from the database shows it the same way).
    public var customMirror: Mirror { Mirror(self, children: ["description": description], displayStyle: .struct) }

    /// `message` with the password (if any) replaced.
    func redacting(_ message: String) -> String {
        guard let password, !password.isEmpty else { return message.trimmed }
        return message.replacing(password, with: "<redacted>").trimmed
    }
}

extension String {
    /// Without the white space and line ends around it (libpq's messages end with a line feed).
    var trimmed: String {
        var text = Substring(self)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        return String(text)
    }
}
#endif
