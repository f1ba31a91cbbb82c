// The system's decoders for HTTP content codings, as libcurl links them (Debian's zlib1g-dev, libbrotli-dev
// and libzstd-dev): zlib for gzip and deflate, brotli, zstd. Brotli and zstd are called directly; zlib's
// set-up is a macro, so it gets a function here; zlib's deflater too, for WebSocket compression. No policy
// lives here.
#ifndef BRICK_CONTENT_CODING_H
#define BRICK_CONTENT_CODING_H

#include <brotli/decode.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>
#include <zstd.h>

#pragma clang assume_nonnull begin

/// A zlib inflater for `window_bits` (15 + 16: gzip; 15: zlib's deflate; -15: raw deflate), or NULL.
z_stream *_Nullable brick_inflate_new(int window_bits);

/// Inflates from `input` into `output`; says how much of each was used. Returns zlib's code (Z_OK,
/// Z_STREAM_END, Z_BUF_ERROR when no progress was possible, or an error).
int brick_inflate(z_stream *stream, const uint8_t *_Nullable input, size_t input_size, size_t *consumed,
                  uint8_t *output, size_t output_size, size_t *produced);

/// Readies the inflater for a following gzip member.
int brick_inflate_reset(z_stream *stream);

/// Frees the inflater.
void brick_inflate_free(z_stream *stream);

/// A zlib deflater (raw deflate for a negative `window_bits`, as WebSocket compression uses), or NULL.
z_stream *_Nullable brick_deflate_new(int window_bits, int level);

/// Deflates from `input` into `output` with zlib's `flush` (Z_NO_FLUSH, Z_SYNC_FLUSH); says how much of
/// each was used. Returns zlib's code.
int brick_deflate(z_stream *stream, const uint8_t *_Nullable input, size_t input_size, size_t *consumed,
                  uint8_t *output, size_t output_size, size_t *produced, int flush);

/// Starts the deflater afresh (no context kept from earlier messages).
int brick_deflate_reset(z_stream *stream);

/// Frees the deflater.
void brick_deflate_free(z_stream *stream);

#pragma clang assume_nonnull end

#endif
