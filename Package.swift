// swift-tools-version: 6.2
import Foundation
import PackageDescription

/// Strict settings, applied once to every Swift target: Swift 6 mode (strict concurrency) and no warnings.
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatAllWarnings(as: .error),
]

/// Tests: the same, but warnings stay warnings (swift-testing's macro expansions trip warnings-as-errors);
/// `make test` still fails on any warning in the library targets.
let strictTests: [SwiftSetting] = Array(strict.dropLast())

let package = Package(
    name: "BrickRequest",
    products: [
        .library(name: "BrickRequest", targets: ["BrickRequest"]),
        .library(name: "BrickCore", targets: ["BrickCore"]),
        .library(name: "BrickCookies", targets: ["BrickCookies"]),
        .library(name: "Bricks", targets: ["Bricks"]),
        .library(name: "BrickWebSocket", targets: ["BrickWebSocket"]),
        .library(name: "BrickTesting", targets: ["BrickTesting"]),
        // Real traffic recorded into HAR cassettes and replayed in tests.
        .library(name: "BrickCassette", targets: ["BrickCassette"]),
        // Integrations, each its own product: only a user who names one builds its dependencies.
        .library(name: "BrickHTTPTypes", targets: ["BrickHTTPTypes"]),
        .library(name: "BrickOpenAPI", targets: ["BrickOpenAPI"]),
        .library(name: "BrickServiceLifecycle", targets: ["BrickServiceLifecycle"]),
        .library(name: "BrickObservability", targets: ["BrickObservability"]),
        .library(name: "BrickQueue", targets: ["BrickQueue"]),
        .library(name: "BrickQueuePostgres", targets: ["BrickQueuePostgres"]),
        // The one executable a dependent gets. The demo, the benchmarks and the soak tool are executable
        // targets of this package alone (`swift run brick-demo`, `swift build --product brick-bench`): a root
        // package builds and runs them by their target names, and no dependent sees them.
        .executable(name: "brick", targets: ["BrickCommand"]),
    ],
    traits: [
        // Each integration's dependencies are resolved only when its trait is on: a package that depends on
        // `BrickRequest` alone resolves swift-log and nothing else. `make test` turns them all on.
        .trait(name: "HTTPTypes", description: "BrickHTTPTypes: swift-http-types' HTTPRequest and HTTPResponse"),
        .trait(name: "OpenAPI", description: "BrickOpenAPI: a ClientTransport for generated OpenAPI clients", enabledTraits: ["HTTPTypes"]),
        .trait(name: "ServiceLifecycle", description: "BrickServiceLifecycle: a session as a swift-service-lifecycle Service"),
        .trait(name: "Observability", description: "BrickObservability: spans and metrics"),
        .trait(name: "Postgres", description: "BrickQueuePostgres: the delivery queue on PostgreSQL, through the system's libpq (libpq-dev)"),
        .default(enabledTraits: []),
    ],
    dependencies: [
        // Logging for the stock request logger (Bricks) and its tests.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // swift-http-types' currency types (BrickHTTPTypes) and the OpenAPI runtime (BrickOpenAPI).
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        // A Service for ServiceGroup (BrickServiceLifecycle).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Spans and metrics (BrickObservability).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        // libcurl, as Debian's libcurl4-openssl-dev installs it.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // Non-variadic wrappers for curl_easy_setopt/getinfo and curl_multi_setopt; no logic.
        .target(name: "CCurlShim", dependencies: ["CCurl"]),
        // The operating system's calls, one file per concern (files, threads and locks, signals, time, sockets
        // and addresses, waiting and waking): the only library code that imports Glibc.
        .target(name: "BrickSystem", dependencies: ["CMutex"], swiftSettings: strict),
        // The mutex BrickSystem's locks are made of: a futex word, in C so that ThreadSanitizer sees it.
        .target(name: "CMutex"),
        // The seam between the core and any transport: request/response values, the typed error, the protocol.
        .target(name: "BrickTransport", dependencies: ["BrickSystem"], swiftSettings: strict),
        // The system's decoders for content codings (zlib, brotli, zstd), which the engine runs itself.
        .target(name: "CContentCoding", linkerSettings: [.linkedLibrary("z"), .linkedLibrary("brotlidec"), .linkedLibrary("zstd")]),
        // The only Swift code that talks to libcurl: one engine thread driving curl's multi interface.
        .target(name: "BrickCurl", dependencies: ["BrickSystem", "BrickTransport", "CCurlShim", "CCurl", "CContentCoding"], swiftSettings: strict),
        // rtnetlink message building and parsing for the reachability monitor (the NLMSG_* macros); no policy.
        .target(name: "CNetlink"),
        // Reachability on Linux: an rtnetlink monitor and a per-host route check.
        .target(name: "BrickReachability", dependencies: ["BrickSystem", "BrickTransport", "CNetlink"], swiftSettings: strict),
        // The public suffix list of the system's libpsl (Debian's libpsl-dev), for the cookie jar's Domain check.
        .target(name: "CPublicSuffix", linkerSettings: [.linkedLibrary("psl")]),
        // Counting the bytes percent-encoding escapes in vector compares, which Swift's SIMD types lack.
        .target(name: "CPercentEncoding"),
        // The brick core: Component, RequestType, ResponseType, Session, ParameterBuilder.
        .target(name: "BrickCore", dependencies: ["BrickSystem", "BrickTransport", "CPercentEncoding"], swiftSettings: strict),
        // The cookie jar, with the system's public suffix list (libpsl): a module of its own, so that BrickCore
        // links only what every call needs.
        .target(name: "BrickCookies", dependencies: ["BrickSystem", "BrickTransport", "BrickCore", "CPublicSuffix"], swiftSettings: strict),
        // WebSockets (RFC 6455, permessage-deflate of RFC 7692 through the system's zlib): the handshake a call
        // through the session, the frames over the connection the transport hands over.
        .target(name: "BrickWebSocket", dependencies: ["BrickSystem", "BrickTransport", "BrickCore", "CContentCoding"], swiftSettings: strict),
        // The stock bricks: one protocol and its default per file.
        .target(
            name: "Bricks", dependencies: ["BrickSystem", "BrickCore", .product(name: "Logging", package: "swift-log")], path: "Bricks",
            swiftSettings: strict),
        // What users import: the core and the stock bricks.
        .target(
            name: "BrickRequest", dependencies: ["BrickCore", "BrickCookies", "BrickWebSocket", "Bricks", "BrickCurl", "BrickReachability"],
            swiftSettings: strict),
        // Conversions to and from swift-http-types' HTTPRequest, HTTPResponse and HTTPFields.
        .target(
            name: "BrickHTTPTypes", dependencies: ["BrickCore", .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["HTTPTypes"]))],
            swiftSettings: strict),
        // A ClientTransport for generated OpenAPI clients, over a Session.
        .target(
            name: "BrickOpenAPI",
            dependencies: ["BrickCore", "BrickHTTPTypes", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"]))],
            swiftSettings: strict),
        // A session as a swift-service-lifecycle Service, drained when the group shuts down.
        .target(
            name: "BrickServiceLifecycle",
            dependencies: ["BrickCore", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["ServiceLifecycle"]))],
            swiftSettings: strict),
        // Spans per call and attempt (with the trace context in the headers) and request metrics.
        .target(
            name: "BrickObservability",
            dependencies: [
                "BrickCore", "Bricks", .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Observability"])),
                .product(name: "Instrumentation", package: "swift-distributed-tracing", condition: .when(traits: ["Observability"])),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Observability"])),
            ],
            swiftSettings: strict),
        // The system's SQLite (Debian's libsqlite3-dev), for the durable queue.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Requests that outlive the process: a delivery queue in a SQLite database.
        .target(name: "BrickQueue", dependencies: ["BrickSystem", "BrickCore", "CSQLite"], swiftSettings: strict),
        // The system's libpq (Debian's libpq-dev), for the delivery queue on PostgreSQL.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // The delivery queue on a PostgreSQL database a fleet of processes shares: claims with leases and
        // fencing tokens, LISTEN/NOTIFY.
        .target(
            name: "BrickQueuePostgres",
            dependencies: ["BrickSystem", "BrickCore", "BrickQueue", .target(name: "CLibPQ", condition: .when(traits: ["Postgres"]))],
            swiftSettings: strict),
        // Shipped test support for users' own tests: a stub transport and friends.
        .target(name: "BrickTesting", dependencies: ["BrickSystem", "BrickCore", "BrickCassette", "BrickWebSocket"], swiftSettings: strict),
        // HAR 1.2 cassettes: a transport that records a session's exchanges (secrets redacted), and one that
        // answers from them.
        .target(name: "BrickCassette", dependencies: ["BrickSystem", "BrickCore"], swiftSettings: strict),
        // A small HTTP/1.1 server on real loopback sockets: the demo's embedded server.
        .target(name: "LoopbackServer", dependencies: ["BrickSystem", "BrickTransport"], swiftSettings: strict),
        // `brick`: one request from the command line, through the library; no dependency of its own.
        .executableTarget(name: "BrickCommand", dependencies: ["BrickRequest", "BrickCore", "BrickCassette"], swiftSettings: strict),
        .executableTarget(name: "brick-demo", dependencies: ["BrickRequest", "BrickQueue", "LoopbackServer"], path: "Sources/BrickDemo", swiftSettings: strict),
        // The library as an Autobahn|Testsuite echo client: `autobahn-client BASE_URL AGENT` (make autobahn).
        .executableTarget(name: "autobahn-client", dependencies: ["BrickRequest"], path: "Sources/AutobahnClient", swiftSettings: strict),
        // WebSocket echo round trips through the library, for `make ws-bench`.
        .executableTarget(name: "ws-bench", dependencies: ["BrickRequest", "BenchSupport"], path: "Sources/WebSocketBench", swiftSettings: strict),
        // The benchmark client: the full brick path, behind the command line of a side-by-side benchmark run.
        .executableTarget(name: "brick-bench", dependencies: ["BrickRequest", "BenchSupport"], path: "Sources/BrickBench", swiftSettings: strict),
        // What the Swift benchmark clients share: the CPU clock, the referee's RESULT line.
        .target(name: "BenchSupport", swiftSettings: strict),
        // The project's raw libcurl client in C, brick-bench's command line: the physical limit of the transport.
        .executableTarget(name: "curl-bench", dependencies: ["CCurl"], path: "Sources/CurlBench"),
        // The floor of the architecture: a Swift task awaiting one engine thread on curl's multi interface, and
        // nothing else (no request value, no options, no head, no body). brick-bench's command line.
        .executableTarget(name: "floor-bench", dependencies: ["CCurl", "CCurlShim", "BenchSupport"], path: "Sources/FloorBench", swiftSettings: strict),

        // Tests: one test target per target, plus the helpers that start real servers.
        .target(name: "TestServers", dependencies: ["LoopbackServer", "BrickTransport"], path: "Tests/TestServers", exclude: ["upload_sink.py", "ws_server.py"], swiftSettings: strictTests),
        .testTarget(name: "BrickSystemTests", dependencies: ["BrickSystem", "CMutex"], swiftSettings: strictTests),
        .testTarget(name: "BrickTransportTests", dependencies: ["BrickTransport"], swiftSettings: strictTests),
        .testTarget(name: "BrickCurlTests", dependencies: ["BrickCurl", "TestServers", "LoopbackServer"], swiftSettings: strictTests),
        .testTarget(name: "BrickCoreTests", dependencies: ["BrickCore", "BrickCookies", "BrickTesting"], swiftSettings: strictTests),
        .testTarget(
            name: "BricksTests",
            dependencies: ["BrickRequest", "BrickTesting", "TestServers", "LoopbackServer", "TransferProbe",
                           .product(name: "InMemoryLogging", package: "swift-log")],
            swiftSettings: strictTests),
        // Runs outage scenarios inside a private network namespace; BrickReachabilityTests start it.
        .executableTarget(
            name: "OutageProbe", dependencies: ["BrickRequest", "BrickQueue", "BrickCassette", "BrickSystem", "BrickTesting", "TestServers"],
            path: "Tests/OutageProbe",
            swiftSettings: strictTests),
        // Downloads or uploads one file in a process of its own (its memory measured alone; a download may kill itself
        // midway so that the next run resumes it). BricksTests run it.
        // Long runs through the full brick path: `make soak` and `make load` (Docs/Reliability.md).
        // One process of a delivery queue's fleet on PostgreSQL (the fleet tests, `make queue-bench`).
        .executableTarget(
            name: "queue-fleet", dependencies: ["BrickQueue", "BrickQueuePostgres", "BrickRequest"], path: "Tests/QueueFleet", swiftSettings: strictTests),
        .executableTarget(name: "brick-soak", dependencies: ["BrickRequest"], path: "Tests/Soak", swiftSettings: strictTests),
        .executableTarget(
            name: "TransferProbe", dependencies: ["BrickRequest", "BrickSystem"], path: "Tests/TransferProbe", swiftSettings: strictTests),
        .testTarget(
            name: "BrickReachabilityTests", dependencies: ["BrickReachability", "CNetlink", "TestServers", "OutageProbe"],
            swiftSettings: strictTests),
        // A client generated from openapi.yaml (committed; the generator is not a dependency) over BrickOpenAPI.
        .testTarget(
            name: "BrickOpenAPITests",
            dependencies: ["BrickOpenAPI", "BrickHTTPTypes", "BrickRequest", "TestServers", "BrickTesting"],
            exclude: ["openapi.yaml", "openapi-generator-config.yaml"], swiftSettings: strictTests),
        .testTarget(
            name: "BrickServiceLifecycleTests",
            dependencies: ["BrickServiceLifecycle", "BrickTesting", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            swiftSettings: strictTests),
        .testTarget(
            name: "BrickObservabilityTests",
            dependencies: [
                "BrickObservability", "BrickTesting", "BrickRequest", "TestServers",
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: strictTests),
        // Runs the built `brick` command against httpbin and nginx.
        .testTarget(name: "BrickCommandTests", dependencies: ["BrickCommand", "TestServers"], swiftSettings: strictTests),
        .testTarget(name: "BrickQueueTests", dependencies: ["BrickQueue", "BrickRequest", "BrickTesting", "TestServers"], swiftSettings: strictTests),
        .testTarget(
            name: "BrickQueuePostgresTests", dependencies: [
                "BrickQueuePostgres", "BrickQueue", "BrickRequest", "BrickSystem", "BrickTesting", "LoopbackServer", "TestServers", "queue-fleet",
            ],
            swiftSettings: strictTests),
        .testTarget(name: "BrickTestingTests", dependencies: ["BrickTesting"], swiftSettings: strictTests),
        .testTarget(
            name: "BrickWebSocketTests", dependencies: ["BrickWebSocket", "BrickRequest", "BrickTesting", "TestServers"], swiftSettings: strictTests),
        .testTarget(
            name: "BrickCassetteTests", dependencies: ["BrickCassette", "BrickTesting", "BrickRequest", "TestServers"],
            exclude: ["har-tools.py"], swiftSettings: strictTests),
        // Every Swift sample of README.md and Docs/, compiled (written by .ci/doc-samples.py, which `make test` runs
        // to check that they are what the pages say).
        .testTarget(
            name: "DocSamples",
            dependencies: [
                "BrickRequest", "BrickTesting", "BrickCassette", "BrickQueue", "BrickQueuePostgres", "BrickHTTPTypes", "BrickOpenAPI", "BrickObservability",
                "BrickServiceLifecycle", "TestServers", .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            // Samples leave values unused (`let user = …` shows what a call returns): no warnings for them.
            swiftSettings: strictTests + [.unsafeFlags(["-suppress-warnings"])]),
        .testTarget(name: "LoopbackServerTests", dependencies: ["LoopbackServer", "BrickCurl"], swiftSettings: strictTests),
    ]
)

// The fuzz targets (`make fuzz`): one executable for every parser of outside input, built only when
// BRICK_FUZZ=1, with `--sanitize=fuzzer`, which brings libFuzzer's `main`.
if ProcessInfo.processInfo.environment["BRICK_FUZZ"] == "1" {
    package.products.append(.executable(name: "brick-fuzz", targets: ["BrickFuzz"]))
    package.targets.append(.executableTarget(
        name: "BrickFuzz", dependencies: ["BrickCore", "BrickCookies", "BrickCurl", "Bricks", "BrickCassette", "BrickWebSocket", "CCurl", "CNetlink"], path: "Tests/Fuzz",
        exclude: ["Corpus"], swiftSettings: strictTests + [.unsafeFlags(["-parse-as-library"])]))
}
