#include "CContentCoding.h"
#include <limits.h>
#include <stdlib.h>

z_stream *brick_inflate_new(int window_bits) {
    z_stream *stream = calloc(1, sizeof(z_stream));
    if (!stream) return NULL;
    if (inflateInit2(stream, window_bits) != Z_OK) {
        free(stream);
        return NULL;
    }
    return stream;
}

int brick_inflate(z_stream *stream, const uint8_t *input, size_t input_size, size_t *consumed,
                  uint8_t *output, size_t output_size, size_t *produced) {
    // zlib counts in uInt: a caller's sizes are clamped to it, and what was used is reported back.
    uInt in_size = input_size > UINT_MAX ? UINT_MAX : (uInt)input_size;
    uInt out_size = output_size > UINT_MAX ? UINT_MAX : (uInt)output_size;
    stream->next_in = (Bytef *)input;
    stream->avail_in = in_size;
    stream->next_out = output;
    stream->avail_out = out_size;
    int code = inflate(stream, Z_NO_FLUSH);
    *consumed = in_size - stream->avail_in;
    *produced = out_size - stream->avail_out;
    return code;
}

int brick_inflate_reset(z_stream *stream) { return inflateReset(stream); }

void brick_inflate_free(z_stream *stream) {
    inflateEnd(stream);
    free(stream);
}
