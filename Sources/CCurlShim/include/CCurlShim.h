// Non-variadic wrappers around libcurl's variadic calls, so that Swift can call them.
// No logic lives here: every function forwards its arguments to one libcurl call.
#ifndef BRICK_CURL_SHIM_H
#define BRICK_CURL_SHIM_H

#include <curl/curl.h>

#pragma clang assume_nonnull begin

typedef size_t (*brick_data_callback)(char *_Nullable data, size_t size, size_t count, void *_Nullable context);
typedef int (*brick_progress_callback)(void *_Nullable context, curl_off_t dltotal, curl_off_t dlnow,
                                       curl_off_t ultotal, curl_off_t ulnow);

CURLcode brick_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode brick_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode brick_easy_setopt_string(CURL *handle, CURLoption option, const char *_Nullable value);
CURLcode brick_easy_setopt_pointer(CURL *handle, CURLoption option, void *_Nullable value);
CURLcode brick_easy_setopt_data_callback(CURL *handle, CURLoption option, brick_data_callback _Nullable callback);
typedef int (*brick_seek_callback)(void *_Nullable context, curl_off_t offset, int origin);

CURLcode brick_easy_setopt_seek_callback(CURL *handle, brick_seek_callback _Nullable callback);
CURLcode brick_easy_setopt_progress_callback(CURL *handle, brick_progress_callback _Nullable callback);
typedef curl_socket_t (*brick_opensocket_callback)(void *_Nullable context, curlsocktype purpose,
                                                   struct curl_sockaddr *_Nullable address);
CURLcode brick_easy_setopt_opensocket_callback(CURL *handle, brick_opensocket_callback _Nullable callback);
/// The pre-request callback (libcurl 7.80+): the context, then the connection's addresses and ports.
typedef int (*brick_prereq_callback)(void *_Nullable context, char *_Nullable primary_ip, char *_Nullable local_ip,
                                     int primary_port, int local_port);
CURLcode brick_easy_setopt_prereq_callback(CURL *handle, brick_prereq_callback _Nullable callback);

CURLcode brick_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode brick_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode brick_easy_getinfo_string(CURL *handle, CURLINFO info, const char *_Nullable *_Nonnull value);
/// CURLINFO_ACTIVESOCKET, whose value is a curl_socket_t (an int here, not a long).
CURLcode brick_easy_getinfo_socket(CURL *handle, curl_socket_t *value);
CURLcode brick_easy_getinfo_pointer(CURL *handle, CURLINFO info, void *_Nullable *_Nonnull value);

/// A finished transfer's timings (microseconds from its start), connections made and body sizes: the
/// CURLINFO_*_T and CURLINFO_NUM_CONNECTS values, read in one call (each that libcurl cannot give is 0).
/// The connect and TLS times are read only when the transfer made a connection (on a reused one libcurl
/// leaves them 0), the bytes sent only when `sent_body` is not 0 (without a body, libcurl counts none).
typedef struct {
    curl_off_t name_lookup_end, connect_end, tls_end, request_start, first_byte, total;
    long connects;
    curl_off_t bytes_sent, bytes_received;
} brick_metrics;
void brick_easy_metrics(CURL *handle, int sent_body, brick_metrics *metrics);

CURLMcode brick_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

CURLSHcode brick_share_setopt_long(CURLSH *share, CURLSHoption option, long value);

/// Reads one finished transfer from the multi handle. Returns 1 and fills `easy` and `result` when a
/// CURLMSG_DONE message was read, 0 when the queue is empty (other message kinds are skipped).
int brick_multi_next_done(CURLM *multi, CURL *_Nullable *_Nonnull easy, CURLcode *result);

#pragma clang assume_nonnull end

#endif
