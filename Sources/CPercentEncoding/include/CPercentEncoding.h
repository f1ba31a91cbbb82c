// Counting the bytes percent-encoding escapes, thirty-two at a time. Swift's SIMD comparisons compile to a
// loop over the lanes; C's vector extensions compile to the processor's byte compares. No policy lives here:
// which bytes are escaped, and how they are written, is BrickCore's `PercentEncoding`.
#ifndef BRICK_PERCENT_ENCODING_H
#define BRICK_PERCENT_ENCODING_H

#include <stddef.h>

#pragma clang assume_nonnull begin

/// How many of the `count` bytes at `bytes` are not RFC 3986 unreserved characters (`A–Z a–z 0–9 - . _ ~`):
/// the bytes that percent-encoding writes as `%XX`. `bytes` may be anything when `count` is 0.
size_t brick_percent_escape_count(const unsigned char *bytes, size_t count);

#pragma clang assume_nonnull end

#endif
