import BrickRequest
import Testing
import TestServers

/// A GET through a session that trusts nginx's test certificate, pinned to `pins`.
final class PinnedCall: Component, GETRequestType, PinnedPublicKeyType, DataResponseType, NonAutoRetryType {
    let session: Session
    let URLString: String
    let pinnedPublicKeys: [String]
    init(_ url: String, pins: [String], session: Session) {
        self.session = session
        URLString = url
        pinnedPublicKeys = pins
        super.init()
    }
}

/// The pinning brick against nginx over TLS: the server's own key passes, any other fails the handshake.
@Suite struct TLSTests {
    @Test func thePinningBrickAcceptsThePinnedKeyOnly() async throws {
        let server = try Nginx.shared.get()
        var configuration = Session.Configuration()
        configuration.transportOptions.caBundlePath = server.certificatePath
        let session = Session(configuration: configuration)
        let pinned = await PinnedCall(server.tlsURL("/small"), pins: [server.publicKeyPin], session: session).dataResponse()
        #expect(pinned.statusCode == 200)
        let other = await PinnedCall(server.tlsURL("/small"), pins: ["sha256//" + String(repeating: "A", count: 43) + "="], session: session)
            .dataResponse()
        #expect(other.error?.transportError?.kind == .tlsFailure)
    }
}
