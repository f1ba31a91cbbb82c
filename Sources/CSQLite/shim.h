#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro that Swift cannot import: this is the same value as a function.
static inline sqlite3_destructor_type brick_sqlite_transient(void) { return SQLITE_TRANSIENT; }
