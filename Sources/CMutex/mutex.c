// The word is 0 when the mutex is free, 1 when it is held and nobody waits, 2 when it is held and a
// thread may be waiting. Taking it is one compare-and-swap from 0 to 1; releasing it is one swap to 0,
// followed by a futex wake only when the word said 2. A thread that finds it held spins briefly (held
// mutexes here guard a few field writes), then marks the word 2 and sleeps on the futex until the word
// changes, and marks it 2 again whenever it takes it after a wait (it cannot know whether others still
// wait; one wake too many costs a system call, one too few would leave a thread asleep for ever).
#include "CMutex.h"

#ifndef __linux__
#error "CMutex parks threads on a Linux futex: another system needs its own way to wait here"
#endif

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

/// How many times a thread that finds the mutex held reads it again before it sleeps.
enum { spin_limit = 100 };

/// Tells the processor the thread is spinning (on x86, `pause`; on Arm, `yield`).
static inline void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ volatile("yield");
#endif
}

static uint32_t spin(uint32_t *word) {
    uint32_t state = __atomic_load_n(word, __ATOMIC_RELAXED);
    for (int turn = 0; state == 1 && turn < spin_limit; turn++) {
        relax();
        state = __atomic_load_n(word, __ATOMIC_RELAXED);
    }
    return state;
}

static void lock_contended(uint32_t *word) {
    uint32_t state = spin(word);
    if (state == 0) {
        uint32_t expected = 0;
        if (__atomic_compare_exchange_n(word, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
    }
    for (;;) {
        if (__atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE) == 0) return;
        // Sleeps only while the word is still 2; a wake, a signal or a changed word all come back here.
        syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
        spin(word);
    }
}

void brick_mutex_lock(uint32_t *word) {
    uint32_t expected = 0;
    if (__atomic_compare_exchange_n(word, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
    lock_contended(word);
}

void brick_mutex_unlock(uint32_t *word) {
    if (__atomic_exchange_n(word, 0, __ATOMIC_RELEASE) == 2) syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

uint32_t brick_mutex_state(uint32_t *word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}
