//go:build cgo

// Package cheader compiles ebref_translator.h, the protocol's C header, and
// reports its structures' sizes and member offsets and its constants, so
// a test can prove them the Go side's.
//
// This package imports nothing of ebref.
package cheader

/*
#include <stddef.h>
#include "../../ebref_translator.h"

#define SZ(T) { #T, sizeof(T) }
#define OFF(T, m) { #T "." #m, offsetof(T, m) }
#define VAL(v) { #v, (uint64_t)(v) }
typedef struct { const char *name; uint64_t v; } entry;
static const entry entries[] = {
	SZ(ebtr_hello), SZ(ebtr_frame), SZ(ebtr_profile_header), SZ(ebtr_cache), SZ(ebtr_request_header),
	SZ(ebtr_range), SZ(ebtr_fact), SZ(ebtr_region), SZ(ebtr_resident), SZ(ebtr_reply_header), SZ(ebtr_policy),
	SZ(ebtr_barrier_0094), SZ(ebtr_barrier_0088), SZ(ebtr_texture_barrier), SZ(ebtr_ranged_barrier_0094), SZ(ebtr_ranged_barrier_0088),
	SZ(ebtr_costs), OFF(ebtr_costs, batch_end_base),
	OFF(ebtr_profile_header, compresses), OFF(ebtr_profile_header, file_size), OFF(ebtr_profile_header, name),
	OFF(ebtr_request_header, profile), OFF(ebtr_request_header, entry), OFF(ebtr_request_header, list_type),
	OFF(ebtr_request_header, list_flags), OFF(ebtr_request_header, call), OFF(ebtr_request_header, split_event),
	OFF(ebtr_request_header, num_records), OFF(ebtr_request_header, record_size), OFF(ebtr_request_header, num_regions),
	OFF(ebtr_request_header, num_aliased_meta), OFF(ebtr_request_header, num_residents),
	OFF(ebtr_fact, kind), OFF(ebtr_fact, flags), OFF(ebtr_fact, compat_before), OFF(ebtr_fact, compat_after),
	OFF(ebtr_fact, surface), OFF(ebtr_fact, end_event), OFF(ebtr_fact, first_region), OFF(ebtr_fact, num_regions),
	OFF(ebtr_fact, data), OFF(ebtr_fact, meta), OFF(ebtr_fact, selected), OFF(ebtr_fact, span),
	OFF(ebtr_resident, data_size), OFF(ebtr_resident, meta_size),
	OFF(ebtr_barrier_0094, u), OFF(ebtr_texture_barrier, resource), OFF(ebtr_texture_barrier, subresources), OFF(ebtr_texture_barrier, flags),
	OFF(ebtr_ranged_barrier_0094, resource), OFF(ebtr_ranged_barrier_0094, subresource), OFF(ebtr_ranged_barrier_0094, range),
	OFF(ebtr_ranged_barrier_0088, flags), OFF(ebtr_ranged_barrier_0088, resource), OFF(ebtr_ranged_barrier_0088, subresources), OFF(ebtr_ranged_barrier_0088, range),
	VAL(EBTR_MAGIC), VAL(EBTR_VERSION), VAL(EBTR_OP_PROFILE), VAL(EBTR_OP_REQUEST), VAL(EBTR_OP_REPLY), VAL(EBTR_OP_POLICY), VAL(EBTR_HELLO_DECLARES_POLICY),
	OFF(ebtr_policy, render_target), OFF(ebtr_policy, depth_stencil), OFF(ebtr_policy, unordered_access),
	VAL(EBTR_MAX_REPLY_DWORDS), VAL(EBTR_MAX_REASON_LEN), VAL(EBTR_MAX_NAME_LEN), VAL(EBTR_MEMORY), VAL(EBTR_ALL_STAGES),
	VAL(EBTR_NUM_CACHES), VAL(EBTR_NUM_STAGES),
	VAL(EBTR_SYNC_NONE),
	VAL(EBTR_SYNC_ALL),
	VAL(EBTR_SYNC_DRAW),
	VAL(EBTR_SYNC_INPUT_ASSEMBLER),
	VAL(EBTR_SYNC_INDEX_INPUT),
	VAL(EBTR_SYNC_VERTEX_SHADING),
	VAL(EBTR_SYNC_PIXEL_SHADING),
	VAL(EBTR_SYNC_DEPTH_STENCIL),
	VAL(EBTR_SYNC_RENDER_TARGET),
	VAL(EBTR_SYNC_COMPUTE_SHADING),
	VAL(EBTR_SYNC_RAYTRACING),
	VAL(EBTR_SYNC_COPY),
	VAL(EBTR_SYNC_RESOLVE),
	VAL(EBTR_SYNC_EXECUTE_INDIRECT),
	VAL(EBTR_SYNC_PREDICATION),
	VAL(EBTR_SYNC_ALL_SHADING),
	VAL(EBTR_SYNC_NON_PIXEL_SHADING),
	VAL(EBTR_SYNC_EMIT_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO),
	VAL(EBTR_SYNC_CLEAR_UNORDERED_ACCESS_VIEW),
	VAL(EBTR_SYNC_VIDEO_DECODE),
	VAL(EBTR_SYNC_VIDEO_PROCESS),
	VAL(EBTR_SYNC_VIDEO_ENCODE),
	VAL(EBTR_SYNC_BUILD_RAYTRACING_ACCELERATION_STRUCTURE),
	VAL(EBTR_SYNC_COPY_RAYTRACING_ACCELERATION_STRUCTURE),
	VAL(EBTR_SYNC_SPLIT),
	VAL(EBTR_ACCESS_COMMON),
	VAL(EBTR_ACCESS_VERTEX_BUFFER),
	VAL(EBTR_ACCESS_CONSTANT_BUFFER),
	VAL(EBTR_ACCESS_INDEX_BUFFER),
	VAL(EBTR_ACCESS_RENDER_TARGET),
	VAL(EBTR_ACCESS_UNORDERED_ACCESS),
	VAL(EBTR_ACCESS_DEPTH_STENCIL_WRITE),
	VAL(EBTR_ACCESS_DEPTH_STENCIL_READ),
	VAL(EBTR_ACCESS_SHADER_RESOURCE),
	VAL(EBTR_ACCESS_STREAM_OUTPUT),
	VAL(EBTR_ACCESS_INDIRECT_ARGUMENT),
	VAL(EBTR_ACCESS_PREDICATION),
	VAL(EBTR_ACCESS_COPY_DEST),
	VAL(EBTR_ACCESS_COPY_SOURCE),
	VAL(EBTR_ACCESS_RESOLVE_DEST),
	VAL(EBTR_ACCESS_RESOLVE_SOURCE),
	VAL(EBTR_ACCESS_RAYTRACING_ACCELERATION_STRUCTURE_READ),
	VAL(EBTR_ACCESS_RAYTRACING_ACCELERATION_STRUCTURE_WRITE),
	VAL(EBTR_ACCESS_SHADING_RATE_SOURCE),
	VAL(EBTR_ACCESS_VIDEO_DECODE_READ),
	VAL(EBTR_ACCESS_VIDEO_DECODE_WRITE),
	VAL(EBTR_ACCESS_VIDEO_PROCESS_READ),
	VAL(EBTR_ACCESS_VIDEO_PROCESS_WRITE),
	VAL(EBTR_ACCESS_VIDEO_ENCODE_READ),
	VAL(EBTR_ACCESS_VIDEO_ENCODE_WRITE),
	VAL(EBTR_ACCESS_NO_ACCESS),
	VAL(EBTR_CLIENT_CP),
	VAL(EBTR_CLIENT_VERTEX_FETCH),
	VAL(EBTR_CLIENT_CONST_FETCH),
	VAL(EBTR_CLIENT_SHADER_LOAD),
	VAL(EBTR_CLIENT_SHADER_STORE),
	VAL(EBTR_CLIENT_COLOR),
	VAL(EBTR_CLIENT_DEPTH),
	VAL(EBTR_CLIENT_COPY),
	VAL(EBTR_CLIENT_STREAM_OUT),
	VAL(EBTR_CLIENT_AS_BUILD),
	VAL(EBTR_CLIENT_RT_TRAVERSE),
	VAL(EBTR_CLIENT_VIDEO),
	VAL(EBTR_CLIENT_BLIT),
	VAL(EBTR_NUM_CLIENTS),
	VAL(EBTR_ENGINE_DIRECT),
	VAL(EBTR_ENGINE_COMPUTE),
	VAL(EBTR_ENGINE_COPY),
	VAL(EBTR_ENGINE_VIDEO_DECODE),
	VAL(EBTR_ENGINE_VIDEO_PROCESS),
	VAL(EBTR_ENGINE_VIDEO_ENCODE),
	VAL(EBTR_NUM_ENGINES),
	VAL(EBTR_WRITE_ACCESSES),
};
static uint32_t sync_stages(int b) { return ebtr_sync_stages[b]; }
static uint32_t access_clients(int b) { return ebtr_access_clients[b]; }
static size_t n_entries(void) { return sizeof entries / sizeof entries[0]; }
static const char *entry_name(size_t i) { return entries[i].name; }
static uint64_t entry_value(size_t i) { return entries[i].v; }

// encode writes one of each packet, for the test to decode with Go's.
static int encode(uint32_t *p) {
	int n = 0;
	n += ebtr_emit_wait(p + n, 3, 5);
	n += ebtr_emit_cache(p + n, 1, 2, 0x123456789aull, 0x1000, 1);
	n += ebtr_emit_decompress(p + n, 7, 0x200000000ull, 0x300, 0);
	n += ebtr_emit_metadata_init(p + n, 7, 0x55, 0x10, 0x20, EBTR_FLAG_PLAIN | EBTR_FLAG_DISCARD, 1);
	n += ebtr_emit_event_signal(p + n, 9, EBTR_ALL_STAGES);
	n += ebtr_emit_event_wait(p + n, 9, 1u << EBTR_STAGE_PIXEL);
	return n;
}
*/
import "C"

import "unsafe"

// Layout is every size, offset and constant, by the C expression's name.
func Layout() map[string]uint64 {
	m := map[string]uint64{}
	for i := C.size_t(0); i < C.n_entries(); i++ {
		m[C.GoString(C.entry_name(i))] = uint64(C.entry_value(i))
	}
	return m
}

// SyncStages and AccessClients are the header's tables.
func SyncStages(bit int) uint32    { return uint32(C.sync_stages(C.int(bit))) }
func AccessClients(bit int) uint32 { return uint32(C.access_clients(C.int(bit))) }

// Packets is what the header's encoders write, one packet of each kind.
func Packets() []uint32 {
	buf := make([]uint32, 64)
	n := C.encode((*C.uint32_t)(unsafe.Pointer(&buf[0])))
	return buf[:n]
}
