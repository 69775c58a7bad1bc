/*
 * ebref_translator.h: the translator protocol, version 2, for C and C++.
 *
 * A translator is a program that turns one Barrier call at a time into
 * packets for ebref's simulated GPU, speaking this protocol on its standard
 * input and output (standard error is its log). docs/translators.md has
 * the protocol byte by byte and what every fact means; this header has the
 * structures, opcodes and packet encoders. Every integer is
 * little-endian; every structure has the layout a C compiler gives it on
 * x86-64 and arm64 (the cgo test in umd/translator checks it against Go).
 *
 *   host -> translator   ebtr_hello {EBTR_MAGIC, EBTR_VERSION, 0, 0}
 *   translator -> host   ebtr_hello {EBTR_MAGIC, EBTR_VERSION, name_len, 0},
 *                        then the name, padded with zeros to 4 bytes
 *   then frames, each an ebtr_frame and `size` bytes of body:
 *   host -> translator   EBTR_OP_PROFILE: ebtr_profile_header,
 *                        num_caches ebtr_cache, route[engines][clients]
 *                        uint32, aware[engines] uint32 client masks,
 *                        ebtr_costs, then file_size bytes of the profile's
 *                        file (JSON, docs/hardware.md "Profile files"),
 *                        padded with zeros to 4 (version 2)
 *   translator -> host   EBTR_OP_POLICY: ebtr_policy, after each profile
 *                        frame, if the hello declared policies
 *   host -> translator   EBTR_OP_REQUEST: ebtr_request_header, the records
 *                        (num_records of record_size bytes: 72 for entry
 *                        94, 80 for 88), num_records ebtr_fact,
 *                        num_regions ebtr_region, num_aliased_meta
 *                        ebtr_range, num_residents ebtr_resident
 *   translator -> host   EBTR_OP_REPLY: ebtr_reply_header, then `count`
 *                        packet dwords (EBTR_REPLY_PACKETS) or `count`
 *                        bytes of reason padded to 4 (EBTR_REPLY_REFUSAL)
 *
 * The host may write several requests before it reads their replies (a
 * command list's calls, sent together when its packets are needed): answer
 * every request once, in the order they came, and write each reply out
 * (fflush) before you block reading another frame; never wait for a
 * further request before answering one you have read. A loop that reads a
 * frame, answers it and flushes, as examples/translators/conservative
 * does, is all it takes. End of input ends the session.
 */
#ifndef EBREF_TRANSLATOR_H
#define EBREF_TRANSLATOR_H

#include <stdint.h>

#define EBTR_MAGIC 0x52544245u /* "EBTR" */
#define EBTR_VERSION 2u

enum { EBTR_OP_PROFILE = 1, EBTR_OP_REQUEST = 2, EBTR_OP_REPLY = 3, EBTR_OP_POLICY = 4 };
/* In the translator hello's fourth dword: it answers every profile frame
 * with an EBTR_OP_POLICY frame, its compression policy on that profile. */
#define EBTR_HELLO_DECLARES_POLICY 1u
enum { EBTR_REPLY_PACKETS = 0, EBTR_REPLY_REFUSAL = 1 };
enum { EBTR_ENTRY_0094 = 94, EBTR_ENTRY_0088 = 88 };

/* Limits the host enforces on a reply. */
#define EBTR_MAX_NAME_LEN 256u
#define EBTR_MAX_REPLY_DWORDS (1u << 20)
#define EBTR_MAX_REASON_LEN 4096u

typedef struct ebtr_hello { uint32_t magic, version, name_len, reserved; } ebtr_hello;
typedef struct ebtr_frame { uint32_t op, size; } ebtr_frame;

/* A profile: the caches and how each engine's clients reach them. */
enum { EBTR_CACHE_SHARED = 1, EBTR_CACHE_READ_ONLY = 2 };
enum { EBTR_COMPRESS_RENDER_TARGET = 1, EBTR_COMPRESS_DEPTH_STENCIL = 2, EBTR_COMPRESS_UNORDERED_ACCESS = 4 };
#define EBTR_MEMORY 0xffu /* a route or parent that is memory, no cache */
typedef struct ebtr_profile_header {
    uint32_t id, num_caches, num_engines, num_clients, compresses, file_size, reserved[2];
    char name[32];
} ebtr_profile_header;
typedef struct ebtr_cache { uint32_t kind, parent, flags, reserved; } ebtr_cache;
/* A profile's cost model, in cycles (docs/hardware.md "Cost model"): after
 * the aware masks. The profile's file says the same and more. */
typedef struct ebtr_costs {
    uint64_t packet, wait_base, cache_op_base, flush_per_line, inval_per_line,
        decompress_per_kib, metadata_per_byte, batch_end_base;
} ebtr_costs;

/* A compression policy: per kind of texture, a mask of the layouts that
 * keep its surface compressed (bit n: layout value n, n < 32; bits 32-35:
 * the four LEGACY_* layouts). declared 0: the reference's table. */
typedef struct ebtr_policy {
    uint32_t profile, declared;
    uint64_t render_target, depth_stencil, unordered_access;
} ebtr_policy;

/* A request: one Barrier call. */
typedef struct ebtr_request_header {
    uint32_t profile, entry, list_type, list_flags, call, split_event;
    uint32_t num_records, record_size, num_regions, num_aliased_meta, num_residents, reserved[5];
} ebtr_request_header;

typedef struct ebtr_range { uint64_t lo, hi; } ebtr_range;

enum { EBTR_KIND_NONE = 0, EBTR_KIND_BUFFER = 1, EBTR_KIND_TEXTURE = 2, EBTR_KIND_SIMULTANEOUS = 3 };
enum { EBTR_COMPRESSED_BEFORE = 1, EBTR_COMPRESSED_AFTER = 2 };
typedef struct ebtr_fact {
    uint32_t kind, flags;
    uint32_t compat_before, compat_after; /* what COMMON stands for */
    uint32_t surface;                     /* 0: none */
    uint32_t end_event;                   /* a split end's begin's event; 0: wait for everything */
    uint32_t first_region, num_regions;
    ebtr_range data, meta, selected, span;
} ebtr_fact;
typedef struct ebtr_region { uint64_t offset, size; } ebtr_region;
typedef struct ebtr_resident { uint64_t addr, data_size, meta_size; } ebtr_resident;
typedef struct ebtr_reply_header { uint32_t status, count; } ebtr_reply_header;

/* The records, as d3d12umddi.h lays out D3D12DDIARG_BARRIER_0094 and _0088. */
enum { EBTR_BARRIER_GLOBAL = 0, EBTR_BARRIER_TEXTURE = 1, EBTR_BARRIER_BUFFER = 2, EBTR_BARRIER_RANGED = 3 };
/* D3D12DDI_BARRIER_SYNC and D3D12DDI_BARRIER_ACCESS bits, as d3d12umddi.h defines them. */
#define EBTR_SYNC_NONE 0u
#define EBTR_SYNC_ALL 0x1u
#define EBTR_SYNC_DRAW 0x2u
#define EBTR_SYNC_INPUT_ASSEMBLER 0x4u
#define EBTR_SYNC_INDEX_INPUT 0x4u
#define EBTR_SYNC_VERTEX_SHADING 0x8u
#define EBTR_SYNC_PIXEL_SHADING 0x10u
#define EBTR_SYNC_DEPTH_STENCIL 0x20u
#define EBTR_SYNC_RENDER_TARGET 0x40u
#define EBTR_SYNC_COMPUTE_SHADING 0x80u
#define EBTR_SYNC_RAYTRACING 0x100u
#define EBTR_SYNC_COPY 0x200u
#define EBTR_SYNC_RESOLVE 0x400u
#define EBTR_SYNC_EXECUTE_INDIRECT 0x800u
#define EBTR_SYNC_PREDICATION 0x800u
#define EBTR_SYNC_ALL_SHADING 0x1000u
#define EBTR_SYNC_NON_PIXEL_SHADING 0x2000u
#define EBTR_SYNC_EMIT_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO 0x4000u
#define EBTR_SYNC_CLEAR_UNORDERED_ACCESS_VIEW 0x8000u
#define EBTR_SYNC_VIDEO_DECODE 0x100000u
#define EBTR_SYNC_VIDEO_PROCESS 0x200000u
#define EBTR_SYNC_VIDEO_ENCODE 0x400000u
#define EBTR_SYNC_BUILD_RAYTRACING_ACCELERATION_STRUCTURE 0x800000u
#define EBTR_SYNC_COPY_RAYTRACING_ACCELERATION_STRUCTURE 0x1000000u
#define EBTR_SYNC_SPLIT 0x80000000u
#define EBTR_ACCESS_COMMON 0u
#define EBTR_ACCESS_VERTEX_BUFFER 0x1u
#define EBTR_ACCESS_CONSTANT_BUFFER 0x2u
#define EBTR_ACCESS_INDEX_BUFFER 0x4u
#define EBTR_ACCESS_RENDER_TARGET 0x8u
#define EBTR_ACCESS_UNORDERED_ACCESS 0x10u
#define EBTR_ACCESS_DEPTH_STENCIL_WRITE 0x20u
#define EBTR_ACCESS_DEPTH_STENCIL_READ 0x40u
#define EBTR_ACCESS_SHADER_RESOURCE 0x80u
#define EBTR_ACCESS_STREAM_OUTPUT 0x100u
#define EBTR_ACCESS_INDIRECT_ARGUMENT 0x200u
#define EBTR_ACCESS_PREDICATION 0x200u
#define EBTR_ACCESS_COPY_DEST 0x400u
#define EBTR_ACCESS_COPY_SOURCE 0x800u
#define EBTR_ACCESS_RESOLVE_DEST 0x1000u
#define EBTR_ACCESS_RESOLVE_SOURCE 0x2000u
#define EBTR_ACCESS_RAYTRACING_ACCELERATION_STRUCTURE_READ 0x4000u
#define EBTR_ACCESS_RAYTRACING_ACCELERATION_STRUCTURE_WRITE 0x8000u
#define EBTR_ACCESS_SHADING_RATE_SOURCE 0x10000u
#define EBTR_ACCESS_VIDEO_DECODE_READ 0x20000u
#define EBTR_ACCESS_VIDEO_DECODE_WRITE 0x40000u
#define EBTR_ACCESS_VIDEO_PROCESS_READ 0x80000u
#define EBTR_ACCESS_VIDEO_PROCESS_WRITE 0x100000u
#define EBTR_ACCESS_VIDEO_ENCODE_READ 0x200000u
#define EBTR_ACCESS_VIDEO_ENCODE_WRITE 0x400000u
#define EBTR_ACCESS_NO_ACCESS 0x80000000u
/* The accesses that write. */
#define EBTR_WRITE_ACCESSES 0x549538u
#define EBTR_LAYOUT_UNDEFINED 0xffffffffu
#define EBTR_TEXTURE_FLAG_DISCARD 1u
#define EBTR_RANGED_FLAG_ATOMIC_COPY 1u
#define EBTR_RANGED_FLAG_ACQUIRE 2u
#define EBTR_RANGED_FLAG_RELEASE 4u

typedef struct ebtr_global_barrier { uint32_t sync_before, sync_after, access_before, access_after; } ebtr_global_barrier;
typedef struct ebtr_subresource_range {
    uint32_t index_or_first_mip_level, num_mip_levels, first_array_slice, num_array_slices, first_plane, num_planes;
} ebtr_subresource_range;
typedef struct ebtr_texture_barrier {
    uint32_t sync_before, sync_after, access_before, access_after, layout_before, layout_after;
    uint64_t resource;
    ebtr_subresource_range subresources;
    uint32_t flags;
} ebtr_texture_barrier;
typedef struct ebtr_buffer_barrier {
    uint32_t sync_before, sync_after, access_before, access_after;
    uint64_t resource;
} ebtr_buffer_barrier;
typedef struct ebtr_ranged_barrier_0094 {
    uint32_t flags;
    uint64_t resource;
    uint32_t subresource;
    ebtr_range range;
} ebtr_ranged_barrier_0094;
typedef struct ebtr_ranged_barrier_0088 {
    ebtr_global_barrier g;
    uint32_t flags;
    uint64_t resource;
    ebtr_subresource_range subresources;
    ebtr_range range;
} ebtr_ranged_barrier_0088;
typedef struct ebtr_barrier_0094 {
    uint32_t type;
    union {
        ebtr_global_barrier global;
        ebtr_texture_barrier texture;
        ebtr_buffer_barrier buffer;
        ebtr_ranged_barrier_0094 ranged;
    } u;
} ebtr_barrier_0094;
typedef struct ebtr_barrier_0088 {
    uint32_t type;
    union {
        ebtr_global_barrier global;
        ebtr_texture_barrier texture;
        ebtr_buffer_barrier buffer;
        ebtr_ranged_barrier_0088 ranged;
    } u;
} ebtr_barrier_0088;

/* The packets a translator may emit, and their fields. */
enum {
    EBTR_PKT_NOP = 0x00, EBTR_PKT_WAIT = 0x20, EBTR_PKT_CACHE = 0x21, EBTR_PKT_DECOMPRESS = 0x22,
    EBTR_PKT_METADATA_INIT = 0x23, EBTR_PKT_EVENT_SIGNAL = 0x30, EBTR_PKT_EVENT_WAIT = 0x31,
};
enum { EBTR_FLAG_ASYNC = 1, EBTR_FLAG_PLAIN = 4, EBTR_FLAG_DISCARD = 8 };
enum {
    EBTR_STAGE_CP, EBTR_STAGE_INPUT, EBTR_STAGE_VERTEX, EBTR_STAGE_PIXEL, EBTR_STAGE_DEPTH, EBTR_STAGE_COLOR,
    EBTR_STAGE_COMPUTE, EBTR_STAGE_RAYTRACE, EBTR_STAGE_ASBUILD, EBTR_STAGE_COPY, EBTR_STAGE_RESOLVE,
    EBTR_STAGE_BLIT, EBTR_STAGE_VIDEO, EBTR_STAGE_CLEAR, EBTR_NUM_STAGES
};
#define EBTR_ALL_STAGES ((1u << EBTR_NUM_STAGES) - 1u)
enum { EBTR_CACHE_COLOR, EBTR_CACHE_DEPTH, EBTR_CACHE_TEXTURE_L0, EBTR_CACHE_SHADER_L0, EBTR_CACHE_L2, EBTR_CACHE_VIDEO, EBTR_NUM_CACHES };
/* The hardware clients (a profile's route and aware tables are indexed by
 * them) and engines (the profile's tables' rows; a list type's engine:
 * DIRECT for direct lists, COMPUTE, COPY and the video ones for theirs). */
enum {
    EBTR_CLIENT_CP, EBTR_CLIENT_VERTEX_FETCH, EBTR_CLIENT_CONST_FETCH, EBTR_CLIENT_SHADER_LOAD,
    EBTR_CLIENT_SHADER_STORE, EBTR_CLIENT_COLOR, EBTR_CLIENT_DEPTH, EBTR_CLIENT_COPY, EBTR_CLIENT_STREAM_OUT,
    EBTR_CLIENT_AS_BUILD, EBTR_CLIENT_RT_TRAVERSE, EBTR_CLIENT_VIDEO, EBTR_CLIENT_BLIT, EBTR_NUM_CLIENTS
};
enum {
    EBTR_ENGINE_DIRECT, EBTR_ENGINE_COMPUTE, EBTR_ENGINE_COPY, EBTR_ENGINE_VIDEO_DECODE, EBTR_ENGINE_VIDEO_PROCESS,
    EBTR_ENGINE_VIDEO_ENCODE, EBTR_NUM_ENGINES
};

/* Where D3D12 meets the hardware, as ebref's work packets are recorded:
 * ebtr_sync_stages[b] is the mask of stages the work of sync bit b runs in
 * (SYNC_ALL covers BLIT and the CP too); ebtr_access_clients[b] the mask
 * of clients that perform access bit b. OR them over a mask's bits;
 * COMMON means the fact's compat_before/compat_after. */
static const uint32_t ebtr_sync_stages[32] = {
    0x3fff, 0x3e, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40, 0x80, 0x200, 0x400, 0x1, 0x4c, 0x44, 0x100, 0x2000,
    0x0, 0x0, 0x0, 0x0, 0x1000, 0x1000, 0x1000, 0x100, 0x100, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
};
static const uint32_t ebtr_access_clients[32] = {
    0x2, 0x4, 0x2, 0x20, 0x10, 0x40, 0x40, 0x8, 0x100, 0x1, 0x80, 0x80, 0x20, 0x20, 0x600, 0x200,
    0x4, 0x800, 0x800, 0x800, 0x800, 0x800, 0x800, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
};

/* Each encoder writes one packet at p and returns its length in dwords. */
static inline uint32_t ebtr_header(uint32_t op, uint32_t flags, uint32_t payload) { return op | payload << 8 | flags << 24; }

static inline int ebtr_emit_wait(uint32_t *p, uint32_t drain, uint32_t hold)
{
    p[0] = ebtr_header(EBTR_PKT_WAIT, 0, 2), p[1] = drain, p[2] = hold;
    return 3;
}

/* Flush, then invalidate, the caches in the masks over [addr, addr+size); size 0: whole caches. */
static inline int ebtr_emit_cache(uint32_t *p, uint32_t flush, uint32_t invalidate, uint64_t addr, uint64_t size, int async)
{
    p[0] = ebtr_header(EBTR_PKT_CACHE, async ? EBTR_FLAG_ASYNC : 0, 6), p[1] = flush, p[2] = invalidate;
    p[3] = (uint32_t)addr, p[4] = (uint32_t)(addr >> 32), p[5] = (uint32_t)size, p[6] = (uint32_t)(size >> 32);
    return 7;
}

static inline int ebtr_emit_decompress(uint32_t *p, uint32_t surface, uint64_t offset, uint64_t size, int async)
{
    p[0] = ebtr_header(EBTR_PKT_DECOMPRESS, async ? EBTR_FLAG_ASYNC : 0, 5), p[1] = surface;
    p[2] = (uint32_t)offset, p[3] = (uint32_t)(offset >> 32), p[4] = (uint32_t)size, p[5] = (uint32_t)(size >> 32);
    return 6;
}

/* flags: EBTR_FLAG_PLAIN (and EBTR_FLAG_DISCARD), or 0 to clear to value. */
static inline int ebtr_emit_metadata_init(uint32_t *p, uint32_t surface, uint32_t value, uint64_t offset, uint64_t size, uint32_t flags, int async)
{
    p[0] = ebtr_header(EBTR_PKT_METADATA_INIT, flags | (async ? EBTR_FLAG_ASYNC : 0), 6), p[1] = surface, p[2] = value;
    p[3] = (uint32_t)offset, p[4] = (uint32_t)(offset >> 32), p[5] = (uint32_t)size, p[6] = (uint32_t)(size >> 32);
    return 7;
}

static inline int ebtr_emit_event_signal(uint32_t *p, uint32_t id, uint32_t stages)
{
    p[0] = ebtr_header(EBTR_PKT_EVENT_SIGNAL, 0, 2), p[1] = id, p[2] = stages;
    return 3;
}

static inline int ebtr_emit_event_wait(uint32_t *p, uint32_t id, uint32_t stages)
{
    p[0] = ebtr_header(EBTR_PKT_EVENT_WAIT, 0, 2), p[1] = id, p[2] = stages;
    return 3;
}

#endif
