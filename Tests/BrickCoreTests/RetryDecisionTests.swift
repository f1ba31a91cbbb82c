import BrickCore
import Foundation
import Testing

/// The retry rules as a table: each row is one situation and the verdict it must get.
struct RetryDecisionTests {
    static let rules = AutoRetryConfiguration(
        breakTime: .seconds(1), maxRetryCount: 3, maxBreakTime: .seconds(10), maxNetworkWait: .seconds(60),
        deadline: .seconds(100), maxRetryAfter: .seconds(30))

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        var configuration = RetryDecisionTests.rules
        var retries = 0
        var method = HTTPMethod.get
        var idempotency = Idempotency.byMethod
        let failure: RetryDecision.FailureKind
        var reachability = ReachabilityStatus.reachable
        var elapsed = Duration.zero
        var jitter = 1.0
        let expected: RetryDecision.Verdict
        var testDescription: String { name }
    }

    static func status(_ code: Int, _ headers: HTTPHeaders = [:]) -> RetryDecision.FailureKind {
        .status(ResponseHead(status: code, headers: headers))
    }

    static let rows: [Row] = [
        // What is retried at all
        Row(name: "refused GET: backoff", failure: .transport(.connectionRefused), expected: .retry(after: .seconds(1))),
        Row(name: "503 GET: backoff", failure: status(503), expected: .retry(after: .seconds(1))),
        Row(name: "408, 429, 500, 502, 504 too", failure: status(429), expected: .retry(after: .seconds(1))),
        Row(name: "404 is final", failure: status(404), expected: .giveUp(.notRetryable)),
        Row(name: "501 is final", failure: status(501), expected: .giveUp(.notRetryable)),
        Row(name: "TLS failure is final", failure: .transport(.tlsFailure), expected: .giveUp(.notRetryable)),
        Row(name: "a refused tunnel is final", failure: .transport(.proxyFailure), expected: .giveUp(.notRetryable)),
        Row(name: "malformed response is final", failure: .transport(.invalidResponse), expected: .giveUp(.notRetryable)),
        Row(name: "parse error is final", failure: .other, expected: .giveUp(.notRetryable)),
        Row(name: "custom statuses", configuration: { var c = rules; c.retryableStatuses = [404]; return c }(),
            failure: status(404), expected: .retry(after: .seconds(1))),
        // Idempotency
        Row(name: "POST refused: never sent, retried", method: .post, failure: .transport(.connectionRefused),
            expected: .retry(after: .seconds(1))),
        Row(name: "POST no route: never sent, retried", method: .post, failure: .transport(.networkUnreachable),
            expected: .retry(after: .seconds(1))),
        Row(name: "POST connect timeout: never sent, retried", method: .post, failure: .transport(.connectTimeout),
            expected: .retry(after: .seconds(1))),
        Row(name: "POST reset: may have arrived", method: .post, failure: .transport(.connectionLost),
            expected: .giveUp(.notIdempotent)),
        Row(name: "POST timed out: may have arrived", method: .post, failure: .transport(.timedOut),
            expected: .giveUp(.notIdempotent)),
        Row(name: "POST 503: arrived", method: .post, failure: status(503), expected: .giveUp(.notIdempotent)),
        Row(name: "PATCH 502: arrived", method: .patch, failure: status(502), expected: .giveUp(.notIdempotent)),
        Row(name: "PUT reset: idempotent", method: .put, failure: .transport(.connectionLost), expected: .retry(after: .seconds(1))),
        Row(name: "DELETE stalled: idempotent", method: .delete, failure: .transport(.stalled), expected: .retry(after: .seconds(1))),
        Row(name: "POST opted in", method: .post, idempotency: .idempotent, failure: .transport(.connectionLost),
            expected: .retry(after: .seconds(1))),
        Row(name: "POST with a key", method: .post, idempotency: .key(header: "Idempotency-Key"), failure: status(503),
            expected: .retry(after: .seconds(1))),
        // Counting: exactly maxRetryCount retries
        Row(name: "third retry allowed", retries: 2, failure: status(503), expected: .retry(after: .seconds(4))),
        Row(name: "no fourth retry", retries: 3, failure: status(503), expected: .giveUp(.retriesExhausted)),
        Row(name: ".none never retries", configuration: .none, failure: status(503), expected: .giveUp(.retriesExhausted)),
        // Backoff: full jitter below a doubling, capped ceiling
        Row(name: "jitter scales the ceiling", retries: 1, failure: status(500), jitter: 0.5, expected: .retry(after: .seconds(1))),
        Row(name: "jitter zero: at once", failure: status(500), jitter: 0, expected: .retry(after: .zero)),
        Row(name: "ceiling capped", configuration: { var c = rules; c.maxRetryCount = 9; return c }(), retries: 8,
            failure: status(500), expected: .retry(after: .seconds(10))),
        // Retry-After
        Row(name: "Retry-After seconds", failure: status(503, ["Retry-After": "7"]), expected: .retry(after: .seconds(7))),
        Row(name: "Retry-After capped", failure: status(429, ["Retry-After": "3600"]), expected: .retry(after: .seconds(30))),
        Row(name: "Retry-After date, against the response's Date",
            failure: status(503, ["Retry-After": "Wed, 21 Oct 2015 07:28:12 GMT", "Date": "Wed, 21 Oct 2015 07:28:00 GMT"]),
            expected: .retry(after: .seconds(12))),
        Row(name: "Retry-After date in the past", failure: status(503, ["Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT",
            "Date": "Wed, 21 Oct 2015 07:29:00 GMT"]), expected: .retry(after: .zero)),
        Row(name: "Retry-After garbage: backoff", failure: status(503, ["Retry-After": "soon"]), expected: .retry(after: .seconds(1))),
        // Deadline
        Row(name: "delay past the deadline", failure: status(503, ["Retry-After": "20"]), elapsed: .seconds(90),
            expected: .giveUp(.deadlineExceeded)),
        Row(name: "deadline already passed", failure: status(503), elapsed: .seconds(100), expected: .giveUp(.deadlineExceeded)),
        // Reachability
        Row(name: "no route while offline: wait", failure: .transport(.networkUnreachable), reachability: .unreachable,
            expected: .waitForNetwork(upTo: .seconds(60))),
        Row(name: "wait bounded by the deadline", failure: .transport(.networkUnreachable), reachability: .unreachable,
            elapsed: .seconds(70), expected: .waitForNetwork(upTo: .seconds(30))),
        Row(name: "DNS while offline: wait", failure: .transport(.cannotResolveHost), reachability: .unreachable,
            expected: .waitForNetwork(upTo: .seconds(60))),
        Row(name: "DNS while online: the name does not exist", failure: .transport(.cannotResolveHost),
            expected: .giveUp(.notRetryable)),
        Row(name: "POST never sent waits too", method: .post, failure: .transport(.connectTimeout), reachability: .unreachable,
            expected: .waitForNetwork(upTo: .seconds(60))),
        Row(name: "POST cut by the outage is not repeated", method: .post, failure: .transport(.connectionLost),
            reachability: .unreachable, expected: .giveUp(.notIdempotent)),
        Row(name: "GET cut by the outage waits", failure: .transport(.connectionLost), reachability: .unreachable,
            expected: .waitForNetwork(upTo: .seconds(60))),
        Row(name: "failWhenNotReachable fails at once",
            configuration: { var c = rules; c.failWhenNotReachable = true; return c }(),
            failure: .transport(.networkUnreachable), reachability: .unreachable, expected: .giveUp(.notReachable)),
        Row(name: "failWhenNotReachable ignores a reachable host's refusal",
            configuration: { var c = rules; c.failWhenNotReachable = true; return c }(),
            failure: .transport(.connectionRefused), expected: .retry(after: .seconds(1))),
        Row(name: "a refusal is not the network's fault", failure: .transport(.connectionRefused), reachability: .unreachable,
            expected: .retry(after: .seconds(1))),
        Row(name: "unknown reachability: backoff", failure: .transport(.networkUnreachable), reachability: .unknown,
            expected: .retry(after: .seconds(1))),
    ]

    @Test(arguments: rows)
    func theVerdictMatchesTheTable(row: Row) {
        let input = RetryDecision.Input(
            configuration: row.configuration, retriesSoFar: row.retries, method: row.method, idempotency: row.idempotency,
            failure: row.failure, reachability: row.reachability, elapsed: row.elapsed, jitter: row.jitter)
        #expect(RetryDecision.decide(input) == row.expected)
    }

    @Test func backoffStaysWithinItsCeilingForEveryJitter() {
        for retry in 0..<12 {
            let ceiling = min(Duration.seconds(10), .seconds(1) * (1 << retry))
            for jitter in stride(from: 0.0, through: 1.0, by: 0.125) {
                let delay = RetryDecision.backoff(retry: retry, jitter: jitter, Self.rules)
                #expect(delay >= .zero && delay <= ceiling)
            }
        }
    }

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777.0),
        ("Sun Nov  6 08:49:37 1994", 784_111_777.0),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0.0),
        ("Tue, 29 Feb 2028 23:59:59 GMT", 1_835_481_599.0),
    ])
    func httpDatesParseInAllThreeForms(text: String, epoch: Double) {
        #expect(HTTPDate.parse(text)?.timeIntervalSince1970 == epoch)
    }

    @Test(arguments: ["", "tomorrow", "Sun, 06 Nov 1994", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
                      "Sun, 06 Nov 1994 25:49:37 GMT"])
    func malformedHttpDatesAreRejected(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func retryAfterSecondsAreReadAsGiven() {
        let reference = Date(timeIntervalSince1970: 0)
        #expect(RetryAfter.delay(" 120 ", reference: reference) == .seconds(120))
        // A number past any sensible delay is clamped to ten years (the retry rules cap it far lower).
        #expect(RetryAfter.delay("99999999999999999999999", reference: reference) == .seconds(10 * 365 * 86_400))
        #expect(RetryAfter.delay("-5", reference: reference) == nil)
    }

    /// Before an attempt only the host's reachability, the rules and the time spent count.
    @Test(arguments: [
        (ReachabilityStatus.reachable, AutoRetryConfiguration.soft, Duration.zero, RetryDecision.Verdict?.none),
        (.unknown, .soft, .zero, nil),
        (.unreachable, .soft, .zero, .waitForNetwork(upTo: AutoRetryConfiguration.soft.maxNetworkWait)),
        (.unreachable, rules, .seconds(70), .waitForNetwork(upTo: .seconds(30))),  // what is left of the deadline
        (.unreachable, rules, .seconds(100), .giveUp(.deadlineExceeded)),
        (.unreachable, AutoRetryConfiguration(maxRetryCount: 0, failWhenNotReachable: true), .zero, .giveUp(.notReachable)),
    ])
    func beforeAnAttempt(
        reachability: ReachabilityStatus, configuration: AutoRetryConfiguration, elapsed: Duration, expected: RetryDecision.Verdict?
    ) {
        let input = RetryDecision.Input(
            configuration: configuration, retriesSoFar: 0, method: .get, failure: .other, reachability: reachability,
            elapsed: elapsed)
        #expect(RetryDecision.beforeAttempt(input) == expected)
    }
}
