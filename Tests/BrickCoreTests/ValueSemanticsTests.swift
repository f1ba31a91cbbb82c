import BrickTransport
import FoundationEssentials
import Testing

/// The options and a response's metrics sit behind shared references (so that copying a request or a
/// response is cheap); they must still behave as values.
@Suite struct ValueSemanticsTests {
    @Test func changingACopysOptionsLeavesTheOriginalAlone() {
        var original = TransportOptions()
        original.timeout = .seconds(5)
        var copy = original
        copy.timeout = .seconds(9)
        copy.proxy = .direct
        copy.pinnedPublicKeys = ["sha256//AAAA"]
        #expect(original.timeout == .seconds(5))
        #expect(original.proxy == .environment)
        #expect(original.pinnedPublicKeys == nil)
        #expect(copy.timeout == .seconds(9))
        #expect(TransportOptions().timeout == nil)  // the shared defaults were not touched either
    }

    @Test func optionsAreEqualByValueNotByReference() {
        var first = TransportOptions()
        var second = TransportOptions()
        first.maxRedirects = 3
        second.maxRedirects = 3
        #expect(first == second)
        second.maxRedirects = 4
        #expect(first != second)
        second.maxRedirects = 3
        second.unixSocketPath = "/run/x.sock"
        #expect(first != second)
        second.unixSocketPath = nil
        #expect(first == second)
    }

    @Test func changingACopysMetricsLeavesTheOriginalAlone() {
        var metrics = TransferMetrics()
        metrics.redirectCount = 1
        let original = TransportResponse(head: ResponseHead(status: 200), metrics: metrics)
        var copy = original
        copy.metrics.redirectCount = 2
        copy.metrics.effectiveURL = "https://example.com/b"
        #expect(original.metrics.redirectCount == 1)
        #expect(original.metrics.effectiveURL == "")
        #expect(copy.metrics.redirectCount == 2)
    }
}
