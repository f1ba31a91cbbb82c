// curl-bench SCENARIO URL N [CONCURRENCY]: the physical limit of BrickRequest's transport, in plain C on
// libcurl, with brick-bench's command line and RESULT line (client=libcurl).
//   S1  N sequential GETs on one easy handle (the connection is kept alive)
//   S2  N GETs on one multi handle, CONCURRENCY (default 64) in flight, each handle re-added when it ends
//   S3  N downloads of URL on one easy handle, the body counted and dropped
//   S4  N sequential POSTs of a 1 KiB body on one easy handle
//   S3m as S3 (the referee's N downloads of a 1 MiB file)
//   H1  S1 over TLS, HTTP/1.1
//   H2  S2 over TLS, HTTP/2: every transfer waits for the one connection (PIPEWAIT) and multiplexes on it
//   H3  S1 over TLS, HTTP/1.1, with a new connection and a full handshake for every request (no reuse, no
//       session resumption)
//   B2  S2 from cold: no warm-up, every connection opened by the timed part (`make outage`: a burst sent the
//       moment a route returns)
// libcurl's defaults throughout (16 KiB receive buffer; for TLS, Debian's CA bundle and directory), except
// that BENCH_CA_FILE, when set, names the CA bundle. Warm-up as brick-bench: 100 requests (S1, S4, H1, H3),
// 4 x CONCURRENCY (S2, H2; H2 after one request that opens the connection), one GET of /small on the same
// host (S3, S3m). Wall and CPU cover the timed part only. BENCH_BEST=1 (client=libcurl-best; not S3, S3m) uses libcurl as BrickRequest's engine
// does at its cheapest: the URL parsed once and kept with the handle (CURLOPT_CURLU: a transfer copies the
// parsed URL instead of parsing the text again) and no Accept field (an empty "Accept:" in the header list).
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static long long received;
static long failures;
static char form[1025];

static size_t count_body(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    received += (long long)(size * count);
    return size * count;
}

static double monotonic(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static double cpu(long *peak_kb) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    if (peak_kb) *peak_kb = usage.ru_maxrss;
    return (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/* What a scenario asks of each handle beyond the URL. */
struct shape {
    int post;        /* a 1 KiB form body */
    long version;    /* CURLOPT_HTTP_VERSION, 0 for libcurl's default */
    int multiplex;   /* wait for a connection that multiplexes */
    int fresh;       /* a new connection, and a full handshake, for every request */
};

/* BENCH_BEST=1: the parsed URL and the header list below, made once, live as long as the process. */
static int best;
static struct curl_slist *best_fields;

static CURL *handle_for(const char *url, struct shape shape) {
    CURL *easy = curl_easy_init();
    if (!easy) return NULL;
    if (best) {
        CURLU *parsed = curl_url();
        if (!parsed || curl_url_set(parsed, CURLUPART_URL, url, 0) != CURLUE_OK) return NULL;
        curl_easy_setopt(easy, CURLOPT_CURLU, parsed);
        curl_easy_setopt(easy, CURLOPT_HTTPHEADER, best_fields);
    } else {
        curl_easy_setopt(easy, CURLOPT_URL, url);
    }
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, count_body);
    const char *trust = getenv("BENCH_CA_FILE");
    if (trust && *trust) curl_easy_setopt(easy, CURLOPT_CAINFO, trust);
    if (shape.version) curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, shape.version);
    if (shape.multiplex) curl_easy_setopt(easy, CURLOPT_PIPEWAIT, 1L);
    if (shape.fresh) {
        curl_easy_setopt(easy, CURLOPT_FRESH_CONNECT, 1L);
        curl_easy_setopt(easy, CURLOPT_FORBID_REUSE, 1L);
        curl_easy_setopt(easy, CURLOPT_SSL_SESSIONID_CACHE, 0L);
    }
    if (shape.post) {
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, form);
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE, (long)strlen(form));
    }
    return easy;
}

static void tally(CURL *easy, CURLcode code) {
    long status = 0;
    if (code != CURLE_OK) {
        fprintf(stderr, "curl-bench: %s\n", curl_easy_strerror(code));
        failures++;
        return;
    }
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    if (status != 200) failures++;
}

static void sequential(CURL *easy, long n) {
    for (long i = 0; i < n; i++) tally(easy, curl_easy_perform(easy));
}

static void in_flight(CURLM *multi, CURL **handles, long width, long n) {
    long started = 0, running_count = 0;
    for (long i = 0; i < width && started < n; i++, started++, running_count++) curl_multi_add_handle(multi, handles[i]);
    while (running_count > 0) {
        int still = 0, queued = 0;
        curl_multi_perform(multi, &still);
        CURLMsg *message;
        while ((message = curl_multi_info_read(multi, &queued))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            tally(easy, message->data.result);
            curl_multi_remove_handle(multi, easy);
            running_count--;
            if (started < n) {
                curl_multi_add_handle(multi, easy);
                started++;
                running_count++;
            }
        }
        if (running_count > 0) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
}

static int is(const char *scenario, const char *name) { return strcmp(scenario, name) == 0; }

int main(int argc, char **argv) {
    const char *known[] = {"S1", "S2", "S3", "S3m", "S4", "H1", "H2", "H3", "B2"};
    int valid = 0;
    for (size_t i = 0; argc >= 4 && i < sizeof known / sizeof *known; i++) valid |= is(argv[1], known[i]);
    if (!valid) {
        fprintf(stderr, "usage: curl-bench S1|S2|S3|S3m|S4|H1|H2|H3|B2 URL N [CONCURRENCY]\n");
        return 2;
    }
    const char *scenario = argv[1], *url = argv[2];
    struct shape shape = {
        .post = is(scenario, "S4"),
        .version = is(scenario, "H2") ? CURL_HTTP_VERSION_2TLS
                   : (is(scenario, "H1") || is(scenario, "H3")) ? CURL_HTTP_VERSION_1_1 : 0,
        .multiplex = is(scenario, "H2"),
        .fresh = is(scenario, "H3"),
    };
    long n = atol(argv[3]), width = argc > 4 ? atol(argv[4]) : 64;
    if (n <= 0 || width <= 0) {
        fprintf(stderr, "curl-bench: N and CONCURRENCY must be positive\n");
        return 2;
    }
    memcpy(form, "b=", 2);
    memset(form + 2, 'x', 1022);
    curl_global_init(CURL_GLOBAL_ALL);
    const char *asked = getenv("BENCH_BEST");
    best = asked && strcmp(asked, "1") == 0 && !is(scenario, "S3") && !is(scenario, "S3m");  /* S3 sets its URLs as text */
    if (best && !(best_fields = curl_slist_append(NULL, "Accept:"))) return 1;

    double wall = 0, used = 0;
    long peak = 0;
    if (is(scenario, "S2") || is(scenario, "H2") || is(scenario, "B2")) {
        CURLM *multi = curl_multi_init();
        curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, width);
        CURL **handles = calloc((size_t)width, sizeof *handles);
        if (!multi || !handles) return 1;
        for (long i = 0; i < width; i++)
            if (!(handles[i] = handle_for(url, shape))) return 1;
        if (shape.multiplex) in_flight(multi, handles, 1, 1);  /* the one connection, before 64 ask for it */
        if (!is(scenario, "B2")) in_flight(multi, handles, width, 4 * width);
        received = 0;
        double cpu0 = cpu(NULL), wall0 = monotonic();
        in_flight(multi, handles, width, n);
        wall = monotonic() - wall0;
        used = cpu(&peak) - cpu0;
    } else {
        CURL *easy = handle_for(url, shape);
        if (!easy) return 1;
        if (is(scenario, "S3") || is(scenario, "S3m")) {
            // Warm the connection with one small request to the same host.
            char small[1024];
            const char *path = strchr(strstr(url, "://") ? strstr(url, "://") + 3 : url, '/');
            size_t prefix = path ? (size_t)(path - url) : strlen(url);
            if (prefix > sizeof small - 7) return 2;
            memcpy(small, url, prefix);
            strcpy(small + prefix, "/small");
            curl_easy_setopt(easy, CURLOPT_URL, small);
            sequential(easy, 1);
            curl_easy_setopt(easy, CURLOPT_URL, url);
        } else {
            sequential(easy, 100);
        }
        received = 0;
        double cpu0 = cpu(NULL), wall0 = monotonic();
        sequential(easy, n);
        wall = monotonic() - wall0;
        used = cpu(&peak) - cpu0;
    }
    printf("RESULT client=%s scenario=%s n=%ld bytes=%lld wall_s=%.6f cpu_s=%.6f maxrss_kb=%ld errors=%ld\n",
           best ? "libcurl-best" : "libcurl", scenario, n, received, wall, used, peak, failures);
    return failures == 0 ? 0 : 1;
}
