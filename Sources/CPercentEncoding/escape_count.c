#include "CPercentEncoding.h"
#include <stdint.h>
#include <string.h>

#ifndef __has_feature
#define __has_feature(feature) 0
#endif

typedef uint8_t lanes32 __attribute__((vector_size(32)));
typedef int8_t signed32 __attribute__((vector_size(32)));
typedef uint64_t words4 __attribute__((vector_size(32)));

// 0xFF in each lane whose byte lies in [lo, lo + n): the range moved to start at -128, so that one signed
// compare tells.
#define IN_RANGE(x, lo, n) ((lanes32)((signed32)((x) + (uint8_t)(0x80 - (lo))) < (int8_t)(-128 + (n))))

// 0xFF in each lane whose byte is unreserved, else 0: a letter (either case), `-`, `.` or a digit (the range
// from `-` to `9` but `/`), `_`, `~`.
#define UNRESERVED(x)                                                                                                 \
    (IN_RANGE((x) | 0x20, 'a', 26) | (IN_RANGE(x, '-', 13) & (lanes32)((x) != '/')) | (lanes32)((x) == '_')           \
     | (lanes32)((x) == '~'))

// Each lane counts its unreserved bytes (subtracting 0xFF adds one), so a run of at most 255 steps of 32
// bytes is summed before a lane could wrap. The last partial step reads the input's last 32 bytes (or, for
// less than 32, a zero-padded copy) and counts only the lanes not counted yet. Inlined into each of the
// builds below, which compile its vector code for their processor.
static inline __attribute__((always_inline)) size_t escape_count(const unsigned char *bytes, size_t count) {
    static const lanes32 positions = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                      16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    size_t index = 0, unreserved = 0;
    for (;;) {
        size_t run = (count - index) & ~(size_t)31;
        if (run > 255 * 32) run = 255 * 32;
        size_t end = index + run;
        lanes32 lanes = {0};
        for (; index < end; index += 32) {
            lanes32 x;
            memcpy(&x, bytes + index, 32);
            lanes -= UNRESERVED(x);
        }
        if (run < 255 * 32 && index < count) {
            lanes32 x = {0};
            uint8_t first = 0, rest = (uint8_t)(count - index);
            if (count >= 32) {
                memcpy(&x, bytes + count - 32, 32);
                first = (uint8_t)(32 - rest);
            } else {
                memcpy(&x, bytes, count);
            }
            lanes -= UNRESERVED(x) & (lanes32)((positions >= first) & (positions < (uint8_t)(first + rest)));
            index = count;
        }
        // The lanes summed: pairs, then fours, then eights added within each 64-bit word.
        words4 sums = (words4)lanes;
        sums = (sums & 0x00FF00FF00FF00FFull) + ((sums >> 8) & 0x00FF00FF00FF00FFull);
        sums = (sums & 0x0000FFFF0000FFFFull) + ((sums >> 16) & 0x0000FFFF0000FFFFull);
        sums = (sums & 0x00000000FFFFFFFFull) + (sums >> 32);
        unreserved += (size_t)(sums[0] + sums[1] + sums[2] + sums[3]);
        if (index >= count) return count - unreserved;
    }
}

// The count for every x86-64 (SSE2: 16 bytes an instruction) and, where the processor has AVX2 (32 bytes an
// instruction), for it: chosen at each call by the processor's feature bits, which the compiler's runtime
// reads once at start. (Not `target_clones`: the test suite built with ThreadSanitizer crashed at start with
// its ifunc resolved by the loader, and musl's loader has no ifuncs.) Under a sanitizer the baseline build
// runs, so that the sanitized suites go through it and the plain suite through the AVX2 one.
static size_t escape_count_baseline(const unsigned char *bytes, size_t count) { return escape_count(bytes, count); }

#if defined(__x86_64__) && !__has_feature(thread_sanitizer) && !__has_feature(address_sanitizer)
__attribute__((target("avx2"))) static size_t escape_count_avx2(const unsigned char *bytes, size_t count) {
    return escape_count(bytes, count);
}

size_t brick_percent_escape_count(const unsigned char *bytes, size_t count) {
    return __builtin_cpu_supports("avx2") ? escape_count_avx2(bytes, count) : escape_count_baseline(bytes, count);
}
#else
size_t brick_percent_escape_count(const unsigned char *bytes, size_t count) { return escape_count_baseline(bytes, count); }
#endif
