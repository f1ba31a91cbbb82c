// A mutex in one 32-bit word, parked on a futex: what BrickSystem's locks are made of. Written in C so
// that its atomic operations are ThreadSanitizer's to see (compiled with the sanitizer like the rest of the
// package), which `Synchronization.Mutex`'s are not, and its uncontended lock and unlock are one atomic
// instruction each (a `pthread_mutex_t` took ~60 instructions a pair).
#ifndef BRICK_MUTEX_H
#define BRICK_MUTEX_H

#include <stdint.h>

#pragma clang assume_nonnull begin

/// Takes the mutex at `word` (0 when free: a zeroed word is a free mutex), waiting while another thread
/// holds it. Not reentrant.
void brick_mutex_lock(uint32_t *word);

/// Releases the mutex at `word`, which the calling thread holds, and wakes one waiter if there is one.
void brick_mutex_unlock(uint32_t *word);

/// The word's state, read atomically: 0 free, 1 held, 2 held while another thread may wait (for tests).
uint32_t brick_mutex_state(uint32_t *word);

#pragma clang assume_nonnull end

#endif
