/*
 * cbor_interop: Debian's libcbor as an independent CBOR implementation for PlainCodecLibcborInteropTest.
 * It reads one job per line on stdin and writes one answer per line on stdout, so a test runs it once
 * per direction for thousands of values.
 *
 *   cbor_interop decode   each line is a CBOR item in hex; libcbor decodes it (cbor_load) and the
 *                         answer is its value in the diagnostic text below, or "error: ...".
 *   cbor_interop encode   each line describes an item (grammar below); libcbor's encoders write it and
 *                         the answer is the bytes in hex, or "error: ...".
 *
 * Diagnostic text: the value, not the spelling. Heads of any width, definite or indefinite lengths and
 * chunked strings all give the same text, and a bignum (tag 2 or 3 over a byte string) is the integer it
 * stands for. The Java test renders decoded plain values the same way.
 *
 *   integer   decimal, "-" for negatives, no size limit                   0   -1   18446744073709551616
 *   float     "f:" and the 16 hex digits of the IEEE 754 double holding    f:3ff8000000000000
 *             it (half and single widen exactly); any NaN is "f:nan"
 *   text      in quotes; printable ASCII other than " and \ as itself,    "a\xc3\xbc"
 *             every other byte of the UTF-8 as \xNN
 *   bytes     h'hex'                                                      h'0102'
 *   array     [item,item]        map  {key:value,key:value}, input order
 *   others    true false null undefined simple(N) N(item) for a tag N other than a bignum
 *
 * Description grammar (tokens separated by single spaces, prefix order, one item per line):
 *
 *   uint W N | negint W N       W is 0 (libcbor picks the shortest head), 8, 16, 32 or 64; N is the
 *                               unsigned decimal argument (negint N is the value -1-N)
 *   tag N ITEM
 *   h:HEX | t:HEX               a definite byte or text string; t: takes the UTF-8 bytes in hex
 *   ibytes CHUNK* end           indefinite byte / text string; each chunk is an h: / t: token
 *   itext CHUNK* end
 *   array N ITEM*N   map N (KEY VALUE)*N   iarray ITEM* end   imap (KEY VALUE)* end
 *   half HEX4 | single HEX8 | double HEX16    the IEEE bits of the float, written at that width
 *   true | false | null
 */
#define _POSIX_C_SOURCE 200809L

#include <cbor.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- output text, grown as needed ---- */

typedef struct {
    char *text;
    size_t length;
    size_t capacity;
} text_buffer;

static void append(text_buffer *out, const char *text, size_t length) {
    if (out->length + length + 1 > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 256;
        while (out->length + length + 1 > capacity) {
            capacity *= 2;
        }
        out->text = realloc(out->text, capacity);
        if (out->text == NULL) {
            fputs("cbor_interop: out of memory\n", stderr);
            exit(2);
        }
        out->capacity = capacity;
    }
    memcpy(out->text + out->length, text, length);
    out->length += length;
    out->text[out->length] = '\0';
}

static void append_text(text_buffer *out, const char *text) {
    append(out, text, strlen(text));
}

static void append_format_u64(text_buffer *out, const char *format, uint64_t value) {
    char number[96];
    snprintf(number, sizeof number, format, value);
    append_text(out, number);
}

static void append_hex(text_buffer *out, const unsigned char *bytes, size_t length) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < length; i++) {
        char pair[2] = {digits[bytes[i] >> 4], digits[bytes[i] & 15]};
        append(out, pair, 2);
    }
}

/* ---- decode: libcbor item -> diagnostic text ---- */

/*
 * Appends the integer whose magnitude is the big-endian `magnitude`: the magnitude itself, or -1 minus
 * it when `negative` (the meaning of major type 1 and of tag 3). Any length: a bignum has no bound here.
 */
static void append_integer(text_buffer *out, bool negative, const unsigned char *magnitude, size_t length) {
    /* One more byte for the carry of the +1 that turns -1-m into -(m+1). */
    unsigned char *number = calloc(length + 1, 1);
    char *digits = malloc(3 * (length + 1) + 2);
    if (number == NULL || digits == NULL) {
        fputs("cbor_interop: out of memory\n", stderr);
        exit(2);
    }
    memcpy(number + 1, magnitude, length);
    size_t size = length + 1;
    if (negative) {
        for (size_t i = size; i-- > 0;) {
            if (++number[i] != 0) {
                break;
            }
        }
    }
    /* Repeated division by 10 of the big-endian number, least significant digit first. */
    size_t count = 0;
    bool zero;
    do {
        unsigned remainder = 0;
        zero = true;
        for (size_t i = 0; i < size; i++) {
            unsigned current = remainder << 8 | number[i];
            number[i] = (unsigned char) (current / 10);
            remainder = current % 10;
            zero = zero && number[i] == 0;
        }
        digits[count++] = (char) ('0' + remainder);
    } while (!zero);
    if (negative) {
        append(out, "-", 1);
    }
    for (size_t i = count; i-- > 0;) {
        append(out, &digits[i], 1);
    }
    free(number);
    free(digits);
}

static void append_u64_as_integer(text_buffer *out, bool negative, uint64_t value) {
    unsigned char bytes[8];
    for (int i = 0; i < 8; i++) {
        bytes[i] = (unsigned char) (value >> (56 - 8 * i));
    }
    append_integer(out, negative, bytes, 8);
}

/* The bytes of a byte or text string, its chunks joined when it is indefinite. Caller frees. */
static unsigned char *string_bytes(const cbor_item_t *item, size_t *length) {
    bool text = cbor_isa_string(item);
    bool definite = text ? cbor_string_is_definite(item) : cbor_bytestring_is_definite(item);
    if (definite) {
        *length = text ? cbor_string_length(item) : cbor_bytestring_length(item);
        unsigned char *copy = malloc(*length + 1);
        if (copy == NULL) {
            exit(2);
        }
        if (*length > 0) {
            memcpy(copy, text ? cbor_string_handle(item) : cbor_bytestring_handle(item), *length);
        }
        return copy;
    }
    size_t count = text ? cbor_string_chunk_count(item) : cbor_bytestring_chunk_count(item);
    cbor_item_t **chunks = text ? cbor_string_chunks_handle(item) : cbor_bytestring_chunks_handle(item);
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        total += text ? cbor_string_length(chunks[i]) : cbor_bytestring_length(chunks[i]);
    }
    unsigned char *joined = malloc(total + 1);
    if (joined == NULL) {
        exit(2);
    }
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        size_t chunk = text ? cbor_string_length(chunks[i]) : cbor_bytestring_length(chunks[i]);
        if (chunk > 0) {
            memcpy(joined + at, text ? cbor_string_handle(chunks[i]) : cbor_bytestring_handle(chunks[i]), chunk);
        }
        at += chunk;
    }
    *length = total;
    return joined;
}

static void append_item(text_buffer *out, cbor_item_t *item);

static void append_float(text_buffer *out, double value) {
    if (isnan(value)) {
        append_text(out, "f:nan");
        return;
    }
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    append_format_u64(out, "f:%016" PRIx64, bits);
}

static void append_tag(text_buffer *out, cbor_item_t *item) {
    uint64_t tag = cbor_tag_value(item);
    cbor_item_t *content = cbor_tag_item(item); /* a new reference */
    if ((tag == 2 || tag == 3) && cbor_isa_bytestring(content)) {
        size_t length;
        unsigned char *magnitude = string_bytes(content, &length);
        append_integer(out, tag == 3, magnitude, length);
        free(magnitude);
    } else {
        append_format_u64(out, "%" PRIu64 "(", tag);
        append_item(out, content);
        append(out, ")", 1);
    }
    cbor_decref(&content);
}

static void append_item(text_buffer *out, cbor_item_t *item) {
    switch (cbor_typeof(item)) {
        case CBOR_TYPE_UINT:
            append_u64_as_integer(out, false, cbor_get_int(item));
            break;
        case CBOR_TYPE_NEGINT:
            append_u64_as_integer(out, true, cbor_get_int(item));
            break;
        case CBOR_TYPE_BYTESTRING: {
            size_t length;
            unsigned char *bytes = string_bytes(item, &length);
            append_text(out, "h'");
            append_hex(out, bytes, length);
            append_text(out, "'");
            free(bytes);
            break;
        }
        case CBOR_TYPE_STRING: {
            size_t length;
            unsigned char *bytes = string_bytes(item, &length);
            append(out, "\"", 1);
            for (size_t i = 0; i < length; i++) {
                if (bytes[i] >= 0x20 && bytes[i] < 0x7f && bytes[i] != '"' && bytes[i] != '\\') {
                    append(out, (const char *) &bytes[i], 1);
                } else {
                    append_format_u64(out, "\\x%02" PRIx64, bytes[i]);
                }
            }
            append(out, "\"", 1);
            free(bytes);
            break;
        }
        case CBOR_TYPE_ARRAY: {
            append(out, "[", 1);
            cbor_item_t **elements = cbor_array_handle(item);
            for (size_t i = 0; i < cbor_array_size(item); i++) {
                if (i > 0) {
                    append(out, ",", 1);
                }
                append_item(out, elements[i]);
            }
            append(out, "]", 1);
            break;
        }
        case CBOR_TYPE_MAP: {
            append(out, "{", 1);
            struct cbor_pair *pairs = cbor_map_handle(item);
            for (size_t i = 0; i < cbor_map_size(item); i++) {
                if (i > 0) {
                    append(out, ",", 1);
                }
                append_item(out, pairs[i].key);
                append(out, ":", 1);
                append_item(out, pairs[i].value);
            }
            append(out, "}", 1);
            break;
        }
        case CBOR_TYPE_TAG:
            append_tag(out, item);
            break;
        case CBOR_TYPE_FLOAT_CTRL:
            if (!cbor_float_ctrl_is_ctrl(item)) {
                append_float(out, cbor_float_get_float(item));
            } else if (cbor_is_null(item)) {
                append_text(out, "null");
            } else if (cbor_is_undef(item)) {
                append_text(out, "undefined");
            } else if (cbor_is_bool(item)) {
                append_text(out, cbor_get_bool(item) ? "true" : "false");
            } else {
                append_format_u64(out, "simple(%" PRIu64 ")", cbor_ctrl_value(item));
            }
            break;
    }
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* Parses `length` hex digits into `bytes`; false if any is not one. */
static bool parse_hex(const char *hex, size_t length, unsigned char *bytes) {
    if (length % 2 != 0) {
        return false;
    }
    for (size_t i = 0; i < length; i += 2) {
        int high = hex_value(hex[i]);
        int low = hex_value(hex[i + 1]);
        if (high < 0 || low < 0) {
            return false;
        }
        bytes[i / 2] = (unsigned char) (high << 4 | low);
    }
    return true;
}

static const char *error_name(cbor_error_code code) {
    switch (code) {
        case CBOR_ERR_NONE: return "none";
        case CBOR_ERR_NOTENOUGHDATA: return "not enough data";
        case CBOR_ERR_NODATA: return "no data";
        case CBOR_ERR_MALFORMATED: return "malformed";
        case CBOR_ERR_MEMERROR: return "out of memory";
        case CBOR_ERR_SYNTAXERROR: return "syntax error";
    }
    return "unknown error";
}

static void decode_line(const char *line, size_t length, text_buffer *out) {
    unsigned char *bytes = malloc(length / 2 + 1);
    if (bytes == NULL) {
        exit(2);
    }
    if (!parse_hex(line, length, bytes)) {
        append_text(out, "error: the line is not hex");
        free(bytes);
        return;
    }
    struct cbor_load_result result;
    cbor_item_t *item = cbor_load(bytes, length / 2, &result);
    if (item == NULL || result.error.code != CBOR_ERR_NONE) {
        append_text(out, "error: ");
        append_text(out, error_name(result.error.code));
        append_format_u64(out, " at byte %" PRIu64, (uint64_t) result.error.position);
    } else if (result.read != length / 2) {
        append_format_u64(out, "error: trailing bytes after byte %" PRIu64, (uint64_t) result.read);
    } else {
        append_item(out, item);
    }
    if (item != NULL) {
        cbor_decref(&item);
    }
    free(bytes);
}

/* ---- encode: description -> libcbor encoders -> hex ---- */

typedef struct {
    char *next;               /* the rest of the line */
    unsigned char *bytes;     /* the encoding so far */
    size_t length;
    size_t capacity;
    const char *error;        /* the first problem, or NULL */
} encoder;

static char *token(encoder *e) {
    if (e->next == NULL || *e->next == '\0') {
        return NULL;
    }
    char *start = e->next;
    char *space = strchr(start, ' ');
    if (space != NULL) {
        *space = '\0';
        e->next = space + 1;
    } else {
        e->next = start + strlen(start);
    }
    return start;
}

static bool fail(encoder *e, const char *problem) {
    if (e->error == NULL) {
        e->error = problem;
    }
    return false;
}

/* Records what a libcbor encoder wrote; it returns 0 when the buffer is too small. */
static bool wrote(encoder *e, size_t written) {
    if (written == 0) {
        return fail(e, "libcbor wrote nothing (the buffer is too small)");
    }
    e->length += written;
    return true;
}

static bool number(encoder *e, uint64_t *value) {
    char *text = token(e);
    if (text == NULL) {
        return fail(e, "a number is missing");
    }
    char *end;
    *value = strtoull(text, &end, 10);
    return *end == '\0' && end != text ? true : fail(e, "not an unsigned decimal number");
}

static unsigned char *room(encoder *e) {
    return e->bytes + e->length;
}

static size_t left(encoder *e) {
    return e->capacity - e->length;
}

static bool integer(encoder *e, bool negative) {
    uint64_t width;
    uint64_t value;
    if (!number(e, &width) || !number(e, &value)) {
        return false;
    }
    switch (width) {
        case 0: return wrote(e, (negative ? cbor_encode_negint : cbor_encode_uint)(value, room(e), left(e)));
        case 8:
            if (value > UINT8_MAX) return fail(e, "the argument does not fit in 8 bits");
            return wrote(e, (negative ? cbor_encode_negint8 : cbor_encode_uint8)((uint8_t) value, room(e), left(e)));
        case 16:
            if (value > UINT16_MAX) return fail(e, "the argument does not fit in 16 bits");
            return wrote(e, (negative ? cbor_encode_negint16 : cbor_encode_uint16)((uint16_t) value, room(e), left(e)));
        case 32:
            if (value > UINT32_MAX) return fail(e, "the argument does not fit in 32 bits");
            return wrote(e, (negative ? cbor_encode_negint32 : cbor_encode_uint32)((uint32_t) value, room(e), left(e)));
        case 64: return wrote(e, (negative ? cbor_encode_negint64 : cbor_encode_uint64)(value, room(e), left(e)));
        default: return fail(e, "an integer width is 0, 8, 16, 32 or 64");
    }
}

/* A definite string token, h:HEX or t:HEX, whose prefix has been checked. */
static bool string(encoder *e, const char *spelled, bool text) {
    size_t digits = strlen(spelled + 2);
    if (!wrote(e, (text ? cbor_encode_string_start : cbor_encode_bytestring_start)(digits / 2, room(e), left(e)))) {
        return false;
    }
    if (digits / 2 > left(e) || !parse_hex(spelled + 2, digits, room(e))) {
        return fail(e, "a string's content is not hex (or does not fit)");
    }
    e->length += digits / 2;
    return true;
}

static float half_to_float(uint16_t half) {
    /* Exact: every half is a float. Subnormal halves are mantissa * 2^-24. */
    int sign = half >> 15 ? -1 : 1;
    int exponent = (half >> 10) & 0x1f;
    int mantissa = half & 0x3ff;
    if (exponent == 0) {
        return (float) (sign * ldexp(mantissa, -24));
    }
    if (exponent == 31) {
        return mantissa ? NAN : sign * INFINITY;
    }
    return (float) (sign * ldexp(mantissa + 1024, exponent - 25));
}

static bool floating(encoder *e, int width) {
    char *text = token(e);
    if (text == NULL || strlen(text) != (size_t) width / 4) {
        return fail(e, "a float needs its IEEE bits in hex, 4, 8 or 16 digits");
    }
    char *end;
    uint64_t bits = strtoull(text, &end, 16);
    if (*end != '\0') {
        return fail(e, "a float's bits are not hex");
    }
    if (width == 16) {
        return wrote(e, cbor_encode_half(half_to_float((uint16_t) bits), room(e), left(e)));
    }
    if (width == 32) {
        uint32_t single_bits = (uint32_t) bits;
        float value;
        memcpy(&value, &single_bits, sizeof value);
        return wrote(e, cbor_encode_single(value, room(e), left(e)));
    }
    double value;
    memcpy(&value, &bits, sizeof value);
    return wrote(e, cbor_encode_double(value, room(e), left(e)));
}

static bool item(encoder *e);

/* Items up to the "end" token, then the break. `chunks` is 'h' or 't' for the chunks of a string. */
static bool indefinite(encoder *e, char chunks, int per_entry) {
    while (true) {
        if (e->next != NULL && strncmp(e->next, "end", 3) == 0 && (e->next[3] == ' ' || e->next[3] == '\0')) {
            token(e);
            return wrote(e, cbor_encode_break(room(e), left(e)));
        }
        if (chunks != 0) {
            char *chunk = token(e);
            if (chunk == NULL || chunk[0] != chunks || chunk[1] != ':') {
                return fail(e, "an indefinite string's chunks are h: or t: tokens of its own type");
            }
            if (!string(e, chunk, chunks == 't')) {
                return false;
            }
            continue;
        }
        for (int i = 0; i < per_entry; i++) {
            if (!item(e)) {
                return false;
            }
        }
    }
}

static bool item(encoder *e) {
    char *kind = token(e);
    if (kind == NULL) {
        return fail(e, "the line ends where an item is expected");
    }
    uint64_t count;
    if (strcmp(kind, "uint") == 0) return integer(e, false);
    if (strcmp(kind, "negint") == 0) return integer(e, true);
    if (strncmp(kind, "h:", 2) == 0) return string(e, kind, false);
    if (strncmp(kind, "t:", 2) == 0) return string(e, kind, true);
    if (strcmp(kind, "half") == 0) return floating(e, 16);
    if (strcmp(kind, "single") == 0) return floating(e, 32);
    if (strcmp(kind, "double") == 0) return floating(e, 64);
    if (strcmp(kind, "true") == 0) return wrote(e, cbor_encode_bool(true, room(e), left(e)));
    if (strcmp(kind, "false") == 0) return wrote(e, cbor_encode_bool(false, room(e), left(e)));
    if (strcmp(kind, "null") == 0) return wrote(e, cbor_encode_null(room(e), left(e)));
    if (strcmp(kind, "tag") == 0) {
        return number(e, &count) && wrote(e, cbor_encode_tag(count, room(e), left(e))) && item(e);
    }
    if (strcmp(kind, "array") == 0 || strcmp(kind, "map") == 0) {
        bool map = kind[0] == 'm';
        if (!number(e, &count) || !wrote(e, (map ? cbor_encode_map_start : cbor_encode_array_start)(count, room(e), left(e)))) {
            return false;
        }
        for (uint64_t i = 0; i < (map ? 2 * count : count); i++) {
            if (!item(e)) {
                return false;
            }
        }
        return true;
    }
    if (strcmp(kind, "iarray") == 0) return wrote(e, cbor_encode_indef_array_start(room(e), left(e))) && indefinite(e, 0, 1);
    if (strcmp(kind, "imap") == 0) return wrote(e, cbor_encode_indef_map_start(room(e), left(e))) && indefinite(e, 0, 2);
    if (strcmp(kind, "ibytes") == 0) return wrote(e, cbor_encode_indef_bytestring_start(room(e), left(e))) && indefinite(e, 'h', 0);
    if (strcmp(kind, "itext") == 0) return wrote(e, cbor_encode_indef_string_start(room(e), left(e))) && indefinite(e, 't', 0);
    return fail(e, "an unknown item kind");
}

static void encode_line(char *line, size_t length, text_buffer *out) {
    /* No token writes more than 9 bytes, nor more than one byte per character of the description. */
    encoder e = {.next = line, .capacity = length + 16, .error = NULL};
    e.bytes = malloc(e.capacity);
    if (e.bytes == NULL) {
        exit(2);
    }
    if (item(&e) && token(&e) != NULL) {
        fail(&e, "tokens after the item");
    }
    if (e.error != NULL) {
        append_text(out, "error: ");
        append_text(out, e.error);
    } else {
        append_hex(out, e.bytes, e.length);
    }
    free(e.bytes);
}

int main(int argc, char **argv) {
    bool decode = argc == 2 && strcmp(argv[1], "decode") == 0;
    bool encode = argc == 2 && strcmp(argv[1], "encode") == 0;
    if (!decode && !encode) {
        fputs("usage: cbor_interop decode|encode < lines > answers (see the comment at the top of cbor_interop.c)\n", stderr);
        return 2;
    }
    char *line = NULL;
    size_t capacity = 0;
    ssize_t read;
    text_buffer out = {0};
    while ((read = getline(&line, &capacity, stdin)) >= 0) {
        while (read > 0 && (line[read - 1] == '\n' || line[read - 1] == '\r')) {
            line[--read] = '\0';
        }
        out.length = 0;
        append_text(&out, "");
        if (decode) {
            decode_line(line, (size_t) read, &out);
        } else {
            encode_line(line, (size_t) read, &out);
        }
        fputs(out.text, stdout);
        fputc('\n', stdout);
    }
    free(line);
    free(out.text);
    return ferror(stdout) ? 1 : 0;
}
