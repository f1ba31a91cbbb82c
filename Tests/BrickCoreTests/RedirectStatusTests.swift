@testable import BrickCore
import Testing

/// The check every response goes through before the redirect rules are read agrees with the public list of
/// statuses that redirect.
@Test func theQuickRedirectCheckAgreesWithTheStatusList() {
    for status in 100...999 {
        #expect(RedirectRule.isRedirect(status) == RedirectRule.redirectStatuses.contains(status), "status \(status)")
    }
}
