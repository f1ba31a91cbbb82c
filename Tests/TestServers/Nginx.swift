import Glibc

/// nginx (Debian's) on two free loopback ports: plain HTTP/1.1 and HTTP/2 over TLS with a self-signed
/// certificate made at start. It serves a 100-byte file, two large sparse files, a gzip bomb (`/bomb`), a
/// redirect from TLS to plain HTTP (`/to-http`), a file under `/paced/` whose first MiB comes at full
/// speed and the rest at 1 kB/s (a download that is surely still running when a test interrupts it), and logs each request's
/// connection number so that tests can count connections.
public final class Nginx: Sendable {
    public let port: Int
    public let tlsPort: Int
    /// A TLS port that asks every client for a certificate signed by ``clientCertificates``' CA
    /// (`ssl_verify_client on`); `/whoami` answers the client certificate's subject.
    public let mutualTLSPort: Int
    /// A TLS port that asks clients for a certificate but serves those without one too
    /// (`ssl_verify_client optional`): `/me` answers `account of <subject>` with `Cache-Control: private,
    /// max-age=300`, `/me-modified` the same with only a `Last-Modified` (heuristic freshness).
    public let optionalTLSPort: Int
    /// The client side of ``mutualTLSPort``.
    public let clientCertificates: ClientCertificates
    /// A Unix domain socket serving the same files; `/host` answers the `Host` the request named.
    public var socketPath: String { directory + "/nginx.sock" }
    /// Where nginx's `/ws-proxy/` location (on ``tlsPort``) expects its WebSocket server.
    public var webSocketSocketPath: String { directory + "/ws.sock" }
    /// The self-signed certificate (PEM): the CA bundle a client must trust for ``tlsPort``.
    public let certificatePath: String
    /// The certificate's public key as a libcurl pin, `sha256//<base64>`.
    public let publicKeyPin: String
    public let directory: String
    /// Size of `/big.bin`.
    public static let bigFileSize = 256 << 20
    /// Size of `/paced/paced.bin` (random bytes): past ``pacedFastBytes`` a response crawls at 1 kB/s.
    public static let pacedFileSize = 3 << 19
    /// How much of a `/paced/` response comes at full speed.
    public static let pacedFastBytes = 1 << 20
    /// The body of `/compact.json` (served as `application/json`): JSON with no space in it.
    public static let compactJSON = #"{"zeta":1,"alpha":{"list":[12345678901234567890,{},"a,b:{c}"],"empty":[]},"s":"q\"}"}"#
    /// Size of `/huge.bin` (sparse: zeros that cost no disk).
    public static let hugeFileSize = 1 << 30
    private let process: ChildProcess

    /// The one nginx of this test process, started on first use and stopped when the process exits.
    public static let shared: Result<Nginx, TestServerError> = {
        let result = Result { () throws(TestServerError) in try Nginx() }
        atexit { if case .success(let server) = Nginx.shared { server.stop() } }
        return result
    }()

    public init() throws(TestServerError) {
        guard let nginx = Paths.executable("nginx"), let openssl = Paths.executable("openssl") else {
            throw TestServerError("nginx or openssl is missing: run the README's test command (make test)")
        }
        directory = try Paths.scratchDirectory("nginx")
        let www = directory + "/www"
        mkdir(www, 0o755)
        try Paths.write(String(repeating: "x", count: 100), to: www + "/small")
        for (name, size) in [("big.bin", Self.bigFileSize), ("huge.bin", Self.hugeFileSize)] {
            guard let file = fopen(www + "/" + name, "w") else { throw TestServerError("cannot create \(name)") }
            ftruncate(fileno(file), off_t(size))
            fclose(file)
            chmod(www + "/" + name, 0o644)
        }
        try Paths.write(Self.compactJSON, to: www + "/compact.json")
        try ChildProcess.run(["/bin/sh", "-c", "head -c \(Self.pacedFileSize) /dev/urandom > '\(www)/paced.bin'"], logPath: "/dev/null")
        // A decompression bomb: 100 MiB of zeros, gzipped to ~100 KiB, served as a gzip-encoded body.
        try ChildProcess.run(["/bin/sh", "-c", "head -c 104857600 /dev/zero | gzip -9 > '\(www)/bomb.gz'"], logPath: "/dev/null")
        // Bodies in content codings libcurl is not asked to decode: zstd, a chain (zstd then gzip), a coding
        // nobody knows, and a damaged gzip body.
        try ChildProcess.run(["/bin/sh", "-c", """
            cd '\(www)' && zstd -q -19 -c compact.json > compact.json.zst && gzip -9 -c compact.json.zst > compact.json.zst.gz \
            && gzip -c compact.json | gzip -c | gzip -c | gzip -c > compact.json.4gz && gzip -c compact.json.4gz > compact.json.5gz \
            && printf '\\037\\213\\010\\000\\000\\000\\000\\000\\000\\003this is not deflate at all' > damaged.gz
            """], logPath: directory + "/codings.log")
        try Self.writeStackedCodings(in: www)
        certificatePath = directory + "/cert.pem"
        try ChildProcess.run([
            openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout", directory + "/key.pem", "-out", certificatePath,
        ], logPath: directory + "/openssl.log")
        try ChildProcess.run([
            "/bin/sh", "-c",
            "\(openssl) x509 -pubkey -noout -in '\(certificatePath)' | \(openssl) pkey -pubin -outform der"
                + " | \(openssl) dgst -sha256 -binary | base64 > '\(directory)/pin.txt'",
        ], logPath: directory + "/pin.log")
        publicKeyPin = "sha256//" + Paths.read(directory + "/pin.txt").filter { !$0.isWhitespace }
        clientCertificates = try ClientCertificates(in: directory, openssl: openssl)
        port = try Sockets.closedPort()
        tlsPort = try Sockets.closedPort()
        mutualTLSPort = try Sockets.closedPort()
        optionalTLSPort = try Sockets.closedPort()
        try Paths.write(
            Self.configuration(directory: directory, port: port, tlsPort: tlsPort, mutualTLSPort: mutualTLSPort, optionalTLSPort: optionalTLSPort),
            to: directory + "/nginx.conf")
        process = try ChildProcess([nginx, "-p", directory, "-c", directory + "/nginx.conf"], logPath: directory + "/stdout.log")
        try Sockets.waitUntilAccepting(port: port, child: process)
        try Sockets.waitUntilAccepting(port: tlsPort, child: process)
        try Sockets.waitUntilAccepting(port: mutualTLSPort, child: process)
        try Sockets.waitUntilAccepting(port: optionalTLSPort, child: process)
    }

    /// Bodies in codings stacked on codings, each `deflate, gzip, gzip` (deflate applied first) and a few KB
    /// on the wire: `stacked-junk.gz` holds `deflate("hello")` followed by 256 MiB of zeros inside its two
    /// gzip layers (bytes after the end of the inner coding), `stacked-swallowed.gz` a deflate stream of
    /// 1 GiB of empty blocks (which decodes to nothing, after a second or more of work) inside the same two
    /// layers. Made with zlib's fastest level: a second or two.
    static func writeStackedCodings(in www: String) throws(TestServerError) {
        let script = """
            import sys, zlib
            def layers(inner, path):
                middle = zlib.compressobj(1, zlib.DEFLATED, 31)
                coded = bytearray()
                for piece in inner: coded += middle.compress(piece)
                coded += middle.flush()
                outer = zlib.compressobj(9, zlib.DEFLATED, 31)
                with open(path, 'wb') as out: out.write(outer.compress(bytes(coded)) + outer.flush())
            def junk(size):
                yield zlib.compress(b'hello')
                zeros = bytes(1 << 20)
                for _ in range(size >> 20): yield zeros
            def swallowed(size):
                yield b'\\x78\\x01'
                empty = b'\\x00\\x00\\x00\\xff\\xff' * (1 << 18)
                for _ in range(size // len(empty)): yield empty
                yield b'\\x03\\x00\\x00\\x00\\x00\\x01'
            layers(junk(256 << 20), sys.argv[1] + '/stacked-junk.gz')
            layers(swallowed(1 << 30), sys.argv[1] + '/stacked-swallowed.gz')
            """
        try Paths.write(script, to: www + "/stacked.py")
        try ChildProcess.run(["/bin/sh", "-c", "cd '\(www)' && python3 stacked.py . && rm stacked.py"], logPath: www + "/../stacked.log")
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
    /// `https://localhost:<tlsPort><path>`.
    public func tlsURL(_ path: String) -> String { "https://localhost:\(tlsPort)\(path)" }

    /// One line per request served so far: `connection-number protocol status uri`.
    /// The access log's lines, every request answered so far included. nginx writes a request's line just
    /// after its answer's last bytes, so a client that read an answer may be ahead of its line: one more
    /// request, answered by the same single worker after it finished every earlier one, comes first.
    public func accessLog() -> [Substring] {
        _ = Sockets.roundTrip(port: port, request: "GET /status HTTP/1.0\r\n\r\n")
        return Paths.read(directory + "/access.log").split(separator: "\n")
    }

    public func stop() {
        process.terminate()
        Paths.removeTree(directory)
    }

    /// On the plain and the TLS server alike (both `localhost` to a client, so one cookie domain):
    /// `/cookie/echo` answers the `Cookie` field it got; each `/cookie/set/<name>` sets the cookies named;
    /// `/host-prefix` sets `__Host-g=1; Secure` (no `Path`) and `__Host-h=1; Secure; Path=/`.
    public static let cookieSetters: [String: [String]] = [
        "secure-good": ["sid=GOOD; Secure; Path=/"],
        "evil": ["sid=EVIL; Path=/"],
        "evil-delete": ["sid=EVIL; Path=/; Max-Age=0"],
        "evil-subpath": ["sid=EVIL; Path=/cookie"],
        "prefixes": ["__Secure-a=1; Secure; Path=/", "__Secure-b=1; Path=/", "__Host-c=1; Secure; Path=/",
                     "__Host-d=1; Secure; Path=/; Domain=localhost", "__Host-e=1; Secure; Path=/cookie", "__host-f=1; Path=/"],
        // Fifty plain cookies, then one that would take the place of a Secure one.
        "flood": (0..<50).map { "f\($0)=x; Path=/" } + ["sid=EVIL; Path=/"],
    ]

    private static var cookieLocations: String {
        "location = /cookie/echo { default_type text/plain; return 200 \"$http_cookie\"; }\n"
            // At the root, so that the default path is `/`: a `__Host-` cookie still needs the attribute.
            + "location = /host-prefix { default_type text/plain; add_header Set-Cookie \"__Host-g=1; Secure\"; "
            + "add_header Set-Cookie \"__Host-h=1; Secure; Path=/\"; return 200 \"set\"; }\n"
            + cookieSetters.map { name, fields in
                "location = /cookie/set/\(name) { default_type text/plain; "
                    + fields.map { "add_header Set-Cookie \"\($0)\";" }.joined(separator: " ") + " return 200 \"set\"; }\n"
            }.joined()
    }

    static func configuration(directory: String, port: Int, tlsPort: Int, mutualTLSPort: Int, optionalTLSPort: Int) -> String {
        """
        worker_processes 1;
        daemon off;
        pid \(directory)/nginx.pid;
        error_log \(directory)/error.log warn;
        events { worker_connections 1024; }
        http {
            log_format conn '$connection $server_protocol $status $request_uri';
            access_log \(directory)/access.log conn;
            client_body_temp_path \(directory)/body; proxy_temp_path \(directory)/proxy;
            fastcgi_temp_path \(directory)/fastcgi; uwsgi_temp_path \(directory)/uwsgi; scgi_temp_path \(directory)/scgi;
            keepalive_requests 100000;
            default_type application/octet-stream;
            server {
                listen 127.0.0.1:\(port);
                root \(directory)/www;
                location /status { stub_status; }
                location = /compact.json { default_type application/json; }
                location /paced/ { alias \(directory)/www/; limit_rate_after 1m; limit_rate 1k; }
                location = /bomb { default_type application/json; add_header Content-Encoding gzip; alias \(directory)/www/bomb.gz; }
                location = /coded/zstd { default_type application/json; add_header Content-Encoding zstd; alias \(directory)/www/compact.json.zst; }
                location = /coded/chain { default_type application/json; add_header Content-Encoding "zstd, gzip"; alias \(directory)/www/compact.json.zst.gz; }
                location = /coded/unknown { default_type application/json; add_header Content-Encoding x-brick; alias \(directory)/www/compact.json; }
                location = /coded/damaged { default_type application/json; add_header Content-Encoding gzip; alias \(directory)/www/damaged.gz; }
                location = /coded/four {
                    default_type application/json; add_header Content-Encoding "gzip, gzip, gzip, gzip"; add_header Cache-Control "max-age=300";
                    alias \(directory)/www/compact.json.4gz;
                }
                location = /coded/five {
                    default_type application/json; add_header Content-Encoding "gzip, gzip, gzip, gzip, gzip"; add_header Cache-Control "max-age=300";
                    alias \(directory)/www/compact.json.5gz;
                }
                location = /coded/two-fields {
                    default_type application/json; add_header Content-Encoding zstd; add_header Content-Encoding gzip;
                    alias \(directory)/www/compact.json.zst.gz;
                }
                location = /coded/stacked-junk {
                    default_type text/plain; add_header Content-Encoding "deflate, gzip, gzip"; alias \(directory)/www/stacked-junk.gz;
                }
                location = /coded/stacked-swallowed {
                    default_type text/plain; add_header Content-Encoding "deflate, gzip, gzip"; alias \(directory)/www/stacked-swallowed.gz;
                }
                \(cookieLocations)
            }
            server {
                listen 127.0.0.1:\(tlsPort) ssl http2;
                ssl_certificate \(directory)/cert.pem;
                ssl_certificate_key \(directory)/key.pem;
                root \(directory)/www;
                location = /to-http { return 302 http://127.0.0.1:\(port)/small; }
                # A WebSocket behind nginx as a reverse proxy, as nginx documents it: the server is
                # ws_server.py on the Unix socket \(directory)/ws.sock (WebSocketServer(unixSocket:)).
                location /ws-proxy/ {
                    proxy_pass http://unix:\(directory)/ws.sock:/;
                    proxy_http_version 1.1;
                    proxy_set_header Upgrade $http_upgrade;
                    proxy_set_header Connection "upgrade";
                }
                \(cookieLocations)
            }
            server {
                listen 127.0.0.1:\(mutualTLSPort) ssl http2;
                ssl_certificate \(directory)/cert.pem;
                ssl_certificate_key \(directory)/key.pem;
                ssl_client_certificate \(directory)/client-ca.pem;
                ssl_verify_client on;
                root \(directory)/www;
                location = /whoami { default_type text/plain; return 200 "$ssl_client_s_dn"; }
            }
            server {
                listen 127.0.0.1:\(optionalTLSPort) ssl http2;
                ssl_certificate \(directory)/cert.pem;
                ssl_certificate_key \(directory)/key.pem;
                ssl_client_certificate \(directory)/client-ca.pem;
                ssl_verify_client optional;
                location = /me { default_type text/plain; add_header Cache-Control "private, max-age=300"; return 200 "account of $ssl_client_s_dn"; }
                location = /me-modified {
                    default_type text/plain; add_header Last-Modified "Sun, 06 Nov 1994 08:49:37 GMT";
                    return 200 "account of $ssl_client_s_dn";
                }
            }
            server {
                listen unix:\(directory)/nginx.sock;
                root \(directory)/www;
                location = /host { default_type text/plain; return 200 "$host"; }
                location = /session-fields {
                    default_type text/plain; return 200 "key=$http_x_api_key auth=$http_authorization agent=$http_user_agent";
                }
            }
        }
        """
    }
}
