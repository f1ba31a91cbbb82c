#include "CPercentEncoding.h"
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#ifndef __has_feature
#define __has_feature(feature) 0
#endif

typedef uint8_t lanes32 __attribute__((vector_size(32)));
typedef int8_t signed32 __attribute__((vector_size(32)));
typedef uint64_t words4 __attribute__((vector_size(32)));

// 0xFF in each lane whose byte lies in [lo, lo + n): the range moved to start at -128, so that one signed
// compare tells.
#define IN_RANGE(x, lo, n) ((lanes32)((signed32)((x) + (uint8_t)(0x80 - (lo))) < (int8_t)(-128 + (n))))

// 0xFF in each lane whose byte percent-encoding escapes, else 0: any byte but a letter (either case), `-`, `.`,
// a digit (the range from `-` to `9` but `/`), `_`, `~`. Four ranges and two bytes compared.
static inline __attribute__((always_inline)) lanes32 escaped_compared(lanes32 x) {
    return ~(IN_RANGE(x | 0x20, 'a', 26) | (IN_RANGE(x, '-', 13) & (lanes32)(x != '/')) | (lanes32)(x == '_')
             | (lanes32)(x == '~'));
}

// Whether percent-encoding escapes `byte`: one bit of a 256-bit table of the unreserved bytes, set for the
// same bytes as the vector tests above and below (the suite checks every byte value through each).
static inline __attribute__((always_inline)) size_t escapes_byte(unsigned char byte) {
    static const uint64_t unreserved[4] = {0x03FF600000000000ull, 0x47FFFFFE87FFFFFEull, 0, 0};
    return (size_t)(~unreserved[byte >> 6] >> (byte & 63) & 1);
}

// Less than 32 bytes are counted a byte at a time. Otherwise each lane counts its escaped bytes
// (subtracting 0xFF adds one), so a run of at most 255 steps of 32 bytes is summed before a lane could wrap,
// and a last partial step re-reads the input's last 32 bytes and counts only the lanes not counted yet.
// Inlined, with the test for a step of 32 bytes, into each of the builds below, which compile its vector
// code for their processor.
static inline __attribute__((always_inline)) size_t escape_count(const unsigned char *bytes, size_t count,
                                                                 lanes32 (*escaped)(lanes32)) {
    size_t escapes = 0;
    if (count < 32) {
        for (size_t index = 0; index < count; index++) escapes += escapes_byte(bytes[index]);
        return escapes;
    }
    static const lanes32 positions = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                      16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    size_t index = 0;
    for (;;) {
        size_t run = (count - index) & ~(size_t)31;
        if (run > 255 * 32) run = 255 * 32;
        size_t end = index + run;
        lanes32 lanes = {0};
        for (; index < end; index += 32) {
            lanes32 x;
            memcpy(&x, bytes + index, 32);
            lanes -= escaped(x);
        }
        if (run < 255 * 32 && index < count) {
            lanes32 x;
            memcpy(&x, bytes + count - 32, 32);
            lanes -= escaped(x) & (lanes32)(positions >= (uint8_t)(32 - (count - index)));
            index = count;
        }
        // The lanes summed: pairs, then fours, then eights added within each 64-bit word.
        words4 sums = (words4)lanes;
        sums = (sums & 0x00FF00FF00FF00FFull) + ((sums >> 8) & 0x00FF00FF00FF00FFull);
        sums = (sums & 0x0000FFFF0000FFFFull) + ((sums >> 16) & 0x0000FFFF0000FFFFull);
        sums = (sums & 0x00000000FFFFFFFFull) + (sums >> 32);
        escapes += (size_t)(sums[0] + sums[1] + sums[2] + sums[3]);
        if (index >= count) return escapes;
    }
}

// The count for every x86-64 (SSE2: 16 bytes an instruction) and, where the processor has AVX2 (32 bytes an
// instruction), for it: chosen at each call by the processor's feature bits, which the compiler's runtime
// reads once at start. (Not `target_clones`: the test suite built with ThreadSanitizer crashed at start with
// its ifunc resolved by the loader, and musl's loader has no ifuncs.) Under a sanitizer the baseline build
// runs, so that the sanitized suites go through it and the plain suite through the AVX2 one.
static size_t escape_count_baseline(const unsigned char *bytes, size_t count) {
    return escape_count(bytes, count, escaped_compared);
}

#if defined(__x86_64__) && !__has_feature(thread_sanitizer) && !__has_feature(address_sanitizer)
// AVX2 has a byte shuffle, which looks 32 bytes up in a 16-entry table at once: each byte's low half picks
// the set of rows (high halves) in which that low half is unreserved, its high half picks its own row's
// bit, and a byte is unreserved when the two share a bit. The rows' bits: 0x2_ (`-` `.`) 1, 0x3_ (digits)
// 2, 0x4_ and 0x6_ (`A`-`O`, `a`-`o`) 4, 0x5_ (`P`-`Z`, `_`) 8, 0x7_ (`p`-`z`, `~`) 16; any other high half
// (0x80 and above among them) none. Seven instructions for the 32 bytes, where the compares take twenty.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) lanes32 escaped_looked_up(lanes32 x) {
    const __m256i low_rows = _mm256_setr_epi8(26, 30, 30, 30, 30, 30, 30, 30, 30, 30, 28, 4, 4, 5, 21, 12,  //
                                              26, 30, 30, 30, 30, 30, 30, 30, 30, 30, 28, 4, 4, 5, 21, 12);
    const __m256i high_row = _mm256_setr_epi8(0, 0, 1, 2, 4, 8, 4, 16, 0, 0, 0, 0, 0, 0, 0, 0,  //
                                              0, 0, 1, 2, 4, 8, 4, 16, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    __m256i bytes = (__m256i)x;
    __m256i low = _mm256_shuffle_epi8(low_rows, _mm256_and_si256(bytes, nibble));
    __m256i high = _mm256_shuffle_epi8(high_row, _mm256_and_si256(_mm256_srli_epi16(bytes, 4), nibble));
    return (lanes32)_mm256_cmpeq_epi8(_mm256_and_si256(low, high), _mm256_setzero_si256());
}

__attribute__((target("avx2"))) static size_t escape_count_avx2(const unsigned char *bytes, size_t count) {
    return escape_count(bytes, count, escaped_looked_up);
}

size_t brick_percent_escape_count(const unsigned char *bytes, size_t count) {
    return __builtin_cpu_supports("avx2") ? escape_count_avx2(bytes, count) : escape_count_baseline(bytes, count);
}
#else
size_t brick_percent_escape_count(const unsigned char *bytes, size_t count) { return escape_count_baseline(bytes, count); }
#endif
