import BrickTransport
import CCurl
import CCurlShim

/// Connections kept apart by the identity they were made under (engine thread only).
///
/// libcurl reuses a kept connection for a request to the same host when their TLS settings match, but it
/// does not compare everything that makes an identity: a client certificate's key and passphrase, nor a
/// proxy's credentials. A request with another key, a wrong passphrase or no key file at all would then
/// ride a connection another identity authenticated. So every request that names an identity (a client
/// certificate, pinned keys, its own CA, an explicit proxy) gets a pool of its own: a libcurl share
/// object holding the connection cache (`CURL_LOCK_DATA_CONNECT`), one per distinct identity. Requests
/// that name none use the multi handle's pool, as before.
struct ConnectionPools {
    /// Where a transfer's connection comes from.
    enum Pool {
        /// The multi handle's pool: the request names no identity.
        case common
        /// The pool of the request's identity, a share object.
        case own(UnsafeMutableRawPointer)
        /// A connection of its own, closed after it: more identities than ``capacity`` are in use.
        case isolated
    }

    /// At most this many identities have a pool; a request with yet another one opens a connection of its
    /// own and closes it after (never wrong, only slower).
    static let capacity = 32
    private var shares: [ConnectionIdentity: UnsafeMutableRawPointer] = [:]

    /// The pool for a transfer with `options`: made on the first request of its identity.
    mutating func pool(for options: TransportOptions) -> Pool {
        guard let identity = ConnectionIdentity(options) else { return .common }
        if let share = shares[identity] { return .own(share) }
        guard shares.count < Self.capacity, let share = curl_share_init() else { return .isolated }
        guard brick_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_CONNECT.rawValue)) == CURLSHE_OK else {
            curl_share_cleanup(share)
            return .isolated
        }
        shares[identity] = share
        return .own(share)
    }

    /// Frees every pool and closes its connections; no easy handle may still use one.
    mutating func drain() {
        for share in shares.values { curl_share_cleanup(share) }
        shares.removeAll()
    }
}

/// What a connection was made under, beyond its host (``TransportOptions/connectionIdentity``). `nil` for a
/// request that names nothing of it.
struct ConnectionIdentity: Hashable {
    let parts: [String]

    init?(_ options: TransportOptions) {
        guard let parts = options.connectionIdentity else { return nil }
        self.parts = parts
    }
}
