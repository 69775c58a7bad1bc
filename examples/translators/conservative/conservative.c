/*
 * conservative: a barrier translator for ebref in C that spends packets
 * instead of thought. Every Barrier call waits for all earlier work,
 * writes back and drops every cache whole, and does the compression work
 * each texture's layouts need (from the request's facts), then writes back
 * and drops every cache again. It is safe on every profile and costs more
 * than the reference: `ebref hlk --translator ./conservative` says how
 * much. docs/translators.md walks through it.
 *
 * Build: ./build.sh OUTPUT (any C11 compiler).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebref_translator.h"

#define MAX_PROFILES 64

static uint32_t all_caches[MAX_PROFILES + 1]; /* per profile id: every cache it has */

static void die(const char *what)
{
    fprintf(stderr, "conservative: %s\n", what);
    exit(1);
}

static int read_all(void *p, size_t n)
{
    return fread(p, 1, n, stdin) == n;
}

static void write_all(const void *p, size_t n)
{
    if (fwrite(p, 1, n, stdout) != n)
        die("writing the reply");
}

static void reply(const uint32_t *words, uint32_t n)
{
    ebtr_frame f = { EBTR_OP_REPLY, (uint32_t)(sizeof(ebtr_reply_header) + 4 * n) };
    ebtr_reply_header h = { EBTR_REPLY_PACKETS, n };
    write_all(&f, sizeof f);
    write_all(&h, sizeof h);
    write_all(words, 4 * (size_t)n);
    /* Out before the next read: ebref may have sent the next requests
     * already, and reads this reply before it sends more. */
    fflush(stdout);
}

static void refuse(const char *reason)
{
    uint32_t n = (uint32_t)strlen(reason), padded = (n + 3) & ~3u;
    ebtr_frame f = { EBTR_OP_REPLY, (uint32_t)sizeof(ebtr_reply_header) + padded };
    ebtr_reply_header h = { EBTR_REPLY_REFUSAL, n };
    static const char zeros[4];
    write_all(&f, sizeof f);
    write_all(&h, sizeof h);
    write_all(reason, n);
    write_all(zeros, padded - n);
    fflush(stdout);
}

static void profile(const unsigned char *body, uint32_t size)
{
    const ebtr_profile_header *h = (const void *)body;
    if (size < sizeof *h || h->id == 0 || h->id > MAX_PROFILES ||
        size < sizeof *h + h->num_caches * sizeof(ebtr_cache))
        die("a profile frame this translator cannot keep");
    const ebtr_cache *c = (const void *)(body + sizeof *h);
    uint32_t mask = 0;
    for (uint32_t i = 0; i < h->num_caches; i++)
        mask |= 1u << c[i].kind;
    all_caches[h->id] = mask;
}

/* The texture barrier record i is, or NULL. */
static const ebtr_texture_barrier *texture(const ebtr_request_header *h, const unsigned char *records, uint32_t i)
{
    const unsigned char *r = records + (size_t)i * h->record_size;
    uint32_t type;
    memcpy(&type, r, 4);
    if (type != EBTR_BARRIER_TEXTURE)
        return NULL;
    return h->entry == EBTR_ENTRY_0088 ? &((const ebtr_barrier_0088 *)(const void *)r)->u.texture
                                       : &((const ebtr_barrier_0094 *)(const void *)r)->u.texture;
}

static uint32_t *words;
static size_t cap;

static void room(size_t n, size_t used)
{
    if (used + n <= cap)
        return;
    cap = 2 * (used + n);
    words = realloc(words, cap * 4);
    if (!words)
        die("out of memory");
}

static void request(const unsigned char *body, uint32_t size)
{
    const ebtr_request_header *h = (const void *)body;
    if (size < sizeof *h)
        die("a short request");
    const unsigned char *records = body + sizeof *h;
    const ebtr_fact *facts = (const void *)(records + (size_t)h->num_records * h->record_size);
    const ebtr_region *regions = (const void *)(facts + h->num_records);
    uint32_t all = h->profile <= MAX_PROFILES ? all_caches[h->profile] : 0;
    if (!all) {
        refuse("a request for a profile that was never sent");
        return;
    }
    size_t n = 0;
    room(20, n);
    n += ebtr_emit_wait(words + n, EBTR_ALL_STAGES, EBTR_ALL_STAGES);
    n += ebtr_emit_cache(words + n, all, all, 0, 0, 0);
    for (uint32_t i = 0; i < h->num_records; i++) {
        const ebtr_fact *f = &facts[i];
        const ebtr_texture_barrier *b = texture(h, records, i);
        if (!b)
            continue;
        if (b->sync_before == EBTR_SYNC_SPLIT) { /* an end: its begin did the work */
            if (f->end_event) {
                room(3, n);
                n += ebtr_emit_event_wait(words + n, f->end_event, EBTR_ALL_STAGES);
            }
            continue;
        }
        if (!f->surface || b->layout_after == EBTR_LAYOUT_UNDEFINED || b->layout_before == b->layout_after)
            continue;
        int cb = (f->flags & EBTR_COMPRESSED_BEFORE) != 0, ca = (f->flags & EBTR_COMPRESSED_AFTER) != 0;
        int from_undefined = b->layout_before == EBTR_LAYOUT_UNDEFINED;
        for (uint32_t k = 0; k < f->num_regions; k++) {
            const ebtr_region *r = &regions[f->first_region + k];
            room(7, n);
            if (from_undefined && !ca) /* the bytes are plain now, whatever the metadata said */
                n += ebtr_emit_metadata_init(words + n, f->surface, 0, r->offset, r->size, EBTR_FLAG_PLAIN | EBTR_FLAG_DISCARD, 0);
            else if (from_undefined && (b->flags & EBTR_TEXTURE_FLAG_DISCARD))
                n += ebtr_emit_metadata_init(words + n, f->surface, 0, r->offset, r->size, 0, 0);
            else if (!from_undefined && cb && !ca)
                n += ebtr_emit_decompress(words + n, f->surface, r->offset, r->size, 0);
            else if (!from_undefined && !cb && ca)
                n += ebtr_emit_metadata_init(words + n, f->surface, 0, r->offset, r->size, EBTR_FLAG_PLAIN, 0);
        }
    }
    room(13, n);
    n += ebtr_emit_wait(words + n, EBTR_ALL_STAGES, EBTR_ALL_STAGES);
    n += ebtr_emit_cache(words + n, all, all, 0, 0, 0);
    if (h->split_event)
        n += ebtr_emit_event_signal(words + n, h->split_event, EBTR_ALL_STAGES);
    reply(words, (uint32_t)n);
}

int main(void)
{
    ebtr_hello hello;
    if (!read_all(&hello, sizeof hello) || hello.magic != EBTR_MAGIC)
        die("no hello from the host");
    if (hello.version != EBTR_VERSION)
        die("the host speaks another version");
    static const char name[] = "conservative-c"; /* 14 bytes, padded to 16 */
    ebtr_hello mine = { EBTR_MAGIC, EBTR_VERSION, sizeof name - 1, 0 };
    char padded[16] = { 0 };
    memcpy(padded, name, sizeof name - 1);
    write_all(&mine, sizeof mine);
    write_all(padded, sizeof padded);
    fflush(stdout);

    unsigned char *body = NULL;
    size_t body_cap = 0;
    ebtr_frame f;
    while (read_all(&f, sizeof f)) {
        if (f.size > body_cap) {
            body_cap = f.size;
            body = realloc(body, body_cap); /* malloc'd memory is aligned for every structure */
            if (!body)
                die("out of memory");
        }
        if (!read_all(body, f.size))
            die("a frame cut short");
        if (f.op == EBTR_OP_PROFILE)
            profile(body, f.size);
        else if (f.op == EBTR_OP_REQUEST)
            request(body, f.size);
        else
            die("a frame that is not the host's");
    }
    return 0;
}
