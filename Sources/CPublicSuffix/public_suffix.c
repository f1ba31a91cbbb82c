#include "CPublicSuffix.h"
#include <libpsl.h>
#include <pthread.h>

// The list is loaded once per process: the newest of the system's list file and the one built into libpsl.
static const psl_ctx_t *list;
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void load(void) {
    const psl_ctx_t *latest = psl_latest(NULL);
    list = latest ? latest : psl_builtin();
}

int brick_is_public_suffix(const char *domain) {
    pthread_once(&loaded, load);
    if (!list) return -1;
    return psl_is_public_suffix2(list, domain, PSL_TYPE_ANY | PSL_TYPE_NO_STAR_RULE) ? 1 : 0;
}
