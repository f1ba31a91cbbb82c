#include "CCurlShim.h"

CURLcode brick_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode brick_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode brick_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode brick_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode brick_easy_setopt_data_callback(CURL *handle, CURLoption option, brick_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

CURLcode brick_easy_setopt_seek_callback(CURL *handle, brick_seek_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, callback);
}

CURLcode brick_easy_setopt_progress_callback(CURL *handle, brick_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode brick_easy_setopt_opensocket_callback(CURL *handle, brick_opensocket_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

CURLcode brick_easy_setopt_prereq_callback(CURL *handle, brick_prereq_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback);
}

CURLcode brick_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode brick_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

void brick_easy_metrics(CURL *handle, int sent_body, brick_metrics *metrics) {
    *metrics = (brick_metrics){0};
    curl_easy_getinfo(handle, CURLINFO_NUM_CONNECTS, &metrics->connects);
    curl_easy_getinfo(handle, CURLINFO_NAMELOOKUP_TIME_T, &metrics->name_lookup_end);
    if (metrics->connects > 0) {
        /* libcurl zeroes every timer when a transfer starts; on a reused connection these two stay 0. */
        curl_easy_getinfo(handle, CURLINFO_CONNECT_TIME_T, &metrics->connect_end);
        curl_easy_getinfo(handle, CURLINFO_APPCONNECT_TIME_T, &metrics->tls_end);
    }
    curl_easy_getinfo(handle, CURLINFO_PRETRANSFER_TIME_T, &metrics->request_start);
    curl_easy_getinfo(handle, CURLINFO_STARTTRANSFER_TIME_T, &metrics->first_byte);
    curl_easy_getinfo(handle, CURLINFO_TOTAL_TIME_T, &metrics->total);
    if (sent_body) curl_easy_getinfo(handle, CURLINFO_SIZE_UPLOAD_T, &metrics->bytes_sent);
    curl_easy_getinfo(handle, CURLINFO_SIZE_DOWNLOAD_T, &metrics->bytes_received);
}

CURLcode brick_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode brick_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLMcode brick_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

int brick_multi_next_done(CURLM *multi, CURL **easy, CURLcode *result) {
    int remaining = 0;
    CURLMsg *message;
    while ((message = curl_multi_info_read(multi, &remaining)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *easy = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}

CURLSHcode brick_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
    return curl_share_setopt(share, option, value);
}

CURLcode brick_easy_getinfo_socket(CURL *handle, curl_socket_t *value) {
    return curl_easy_getinfo(handle, CURLINFO_ACTIVESOCKET, value);
}
