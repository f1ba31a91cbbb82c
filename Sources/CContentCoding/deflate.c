#include "CContentCoding.h"
#include <limits.h>
#include <stdlib.h>

z_stream *brick_deflate_new(int window_bits, int level) {
    z_stream *stream = calloc(1, sizeof(z_stream));
    if (!stream) return NULL;
    if (deflateInit2(stream, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(stream);
        return NULL;
    }
    return stream;
}

int brick_deflate(z_stream *stream, const uint8_t *input, size_t input_size, size_t *consumed,
                  uint8_t *output, size_t output_size, size_t *produced, int flush) {
    uInt in_size = input_size > UINT_MAX ? UINT_MAX : (uInt)input_size;
    uInt out_size = output_size > UINT_MAX ? UINT_MAX : (uInt)output_size;
    stream->next_in = (Bytef *)input;
    stream->avail_in = in_size;
    stream->next_out = output;
    stream->avail_out = out_size;
    int code = deflate(stream, flush);
    *consumed = in_size - stream->avail_in;
    *produced = out_size - stream->avail_out;
    return code;
}

int brick_deflate_reset(z_stream *stream) { return deflateReset(stream); }

void brick_deflate_free(z_stream *stream) {
    deflateEnd(stream);
    free(stream);
}
