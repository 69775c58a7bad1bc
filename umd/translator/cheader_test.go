//go:build cgo

package translator_test

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd"
	"github.com/ebref/ebref/umd/translator"
	"github.com/ebref/ebref/umd/translator/internal/cheader"
)

// TestCHeaderIsTheProtocol: ebref_translator.h lays out every structure
// as the Go side reads and writes it, and its encoders write the packets
// cmdbuf decodes.
func TestCHeaderIsTheProtocol(t *testing.T) {
	var f translator.Fact
	var tb ddi.TextureBarrier
	var r94 ddi.RangedBarrier
	var r88 ddi.RangedBarrier0088
	want := map[string]uint64{
		"ebtr_hello": translator.HelloSize, "ebtr_frame": translator.FrameHeaderSize,
		"ebtr_profile_header": translator.ProfileHeaderSize, "ebtr_cache": translator.CacheEntrySize,
		"ebtr_request_header": translator.RequestHeaderSize, "ebtr_range": translator.RangeSize,
		"ebtr_fact": translator.FactSize, "ebtr_region": translator.RegionSize, "ebtr_resident": translator.ResidentSize,
		"ebtr_reply_header": translator.ReplyHeaderSize, "ebtr_policy": translator.PolicySize,
		// AppendPolicy: the id, declared, then the three masks.
		"ebtr_policy.render_target": 8, "ebtr_policy.depth_stencil": 16, "ebtr_policy.unordered_access": 24,
		"EBTR_OP_POLICY": uint64(translator.OpPolicy), "EBTR_HELLO_DECLARES_POLICY": translator.HelloDeclaresPolicy,
		"ebtr_barrier_0094": uint64(ddi.BarrierSize), "ebtr_barrier_0088": uint64(ddi.Barrier0088Size),
		"ebtr_texture_barrier": uint64(unsafe.Sizeof(tb)), "ebtr_ranged_barrier_0094": uint64(unsafe.Sizeof(r94)),
		"ebtr_ranged_barrier_0088": uint64(unsafe.Sizeof(r88)),
		// AppendProfile writes eight dwords, then the name; after the
		// aware masks, eight uint64 costs.
		"ebtr_profile_header.compresses": 16, "ebtr_profile_header.file_size": 20, "ebtr_profile_header.name": 32,
		"ebtr_costs": translator.CostsSize, "ebtr_costs.batch_end_base": 56,
		"ebtr_fact.kind": uint64(unsafe.Offsetof(f.Kind)), "ebtr_fact.flags": uint64(unsafe.Offsetof(f.Flags)),
		"ebtr_fact.compat_before": uint64(unsafe.Offsetof(f.CompatBefore)), "ebtr_fact.compat_after": uint64(unsafe.Offsetof(f.CompatAfter)),
		"ebtr_fact.surface": uint64(unsafe.Offsetof(f.Surface)), "ebtr_fact.end_event": uint64(unsafe.Offsetof(f.EndEvent)),
		"ebtr_fact.first_region": uint64(unsafe.Offsetof(f.FirstRegion)), "ebtr_fact.num_regions": uint64(unsafe.Offsetof(f.NumRegions)),
		"ebtr_fact.data": uint64(unsafe.Offsetof(f.Data)), "ebtr_fact.meta": uint64(unsafe.Offsetof(f.Meta)),
		"ebtr_fact.selected": uint64(unsafe.Offsetof(f.Selected)), "ebtr_fact.span": uint64(unsafe.Offsetof(f.Span)),
		"ebtr_resident.data_size": 8, "ebtr_resident.meta_size": 16,
		"ebtr_barrier_0094.u": 8, "ebtr_texture_barrier.resource": uint64(unsafe.Offsetof(tb.Resource)),
		"ebtr_texture_barrier.subresources": uint64(unsafe.Offsetof(tb.Subresources)), "ebtr_texture_barrier.flags": uint64(unsafe.Offsetof(tb.Flags)),
		"ebtr_ranged_barrier_0094.resource": uint64(unsafe.Offsetof(r94.Resource)), "ebtr_ranged_barrier_0094.subresource": uint64(unsafe.Offsetof(r94.Subresource)),
		"ebtr_ranged_barrier_0094.range": uint64(unsafe.Offsetof(r94.Range)),
		"ebtr_ranged_barrier_0088.flags": uint64(unsafe.Offsetof(r88.Flags)), "ebtr_ranged_barrier_0088.resource": uint64(unsafe.Offsetof(r88.Resource)),
		"ebtr_ranged_barrier_0088.subresources": uint64(unsafe.Offsetof(r88.Subresources)), "ebtr_ranged_barrier_0088.range": uint64(unsafe.Offsetof(r88.Range)),
		"EBTR_MAGIC": translator.Magic, "EBTR_VERSION": translator.Version, "EBTR_OP_PROFILE": uint64(translator.OpProfile),
		"EBTR_OP_REQUEST": uint64(translator.OpRequest), "EBTR_OP_REPLY": uint64(translator.OpReply),
		"EBTR_MAX_REPLY_DWORDS": translator.MaxReplyDwords, "EBTR_MAX_REASON_LEN": translator.MaxReasonLen,
		"EBTR_MAX_NAME_LEN": translator.MaxNameLen, "EBTR_MEMORY": uint64(translator.MemoryCache),
		"EBTR_ALL_STAGES": uint64(cmdbuf.AllStages), "EBTR_NUM_CACHES": uint64(cmdbuf.NumCaches), "EBTR_NUM_STAGES": uint64(cmdbuf.NumStages),
	}
	// The request header is sixteen dwords in AppendRequest's order.
	for i, n := range []string{"profile", "entry", "list_type", "list_flags", "call", "split_event", "num_records",
		"record_size", "num_regions", "num_aliased_meta", "num_residents"} {
		want["ebtr_request_header."+n] = uint64(4 * i)
	}
	got := cheader.Layout()
	// The D3D12 values, clients and engines, by their names.
	for k := range got {
		var v uint64
		var err error
		switch name, _ := strings.CutPrefix(k, "EBTR_"); {
		case strings.HasPrefix(name, "SYNC_"):
			var s ddi.BarrierSync
			s, err = ddi.ParseBarrierSync(name[len("SYNC_"):])
			v = uint64(s)
		case strings.HasPrefix(name, "ACCESS_"):
			var a ddi.BarrierAccess
			a, err = ddi.ParseBarrierAccess(name[len("ACCESS_"):])
			v = uint64(a)
		case name == "NUM_CLIENTS":
			v = uint64(cmdbuf.NumClients)
		case strings.HasPrefix(name, "CLIENT_"):
			var c cmdbuf.Client
			c, err = cmdbuf.ParseClient(name[len("CLIENT_"):])
			v = uint64(c)
		case name == "NUM_ENGINES":
			v = uint64(hwmodel.NumEngineKinds)
		case strings.HasPrefix(name, "ENGINE_"):
			var e hwmodel.EngineKind
			e, err = hwmodel.ParseEngineKind(name[len("ENGINE_"):])
			v = uint64(e)
		case name == "WRITE_ACCESSES":
			v = uint64(ddi.WriteAccesses)
		default:
			continue
		}
		if assert.NoError(t, err, k) {
			want[k] = v
		}
	}
	for b := 0; b < 32; b++ {
		assert.Equal(t, uint32(umd.Stages(ddi.BarrierSync(1<<b))), cheader.SyncStages(b), "ebtr_sync_stages[%d]", b)
		assert.Equal(t, umd.Clients(ddi.BarrierAccess(1<<b)), cheader.AccessClients(b), "ebtr_access_clients[%d]", b)
	}
	for k, v := range want {
		assert.Equal(t, v, got[k], k)
	}
	assert.Len(t, got, len(want), "every quantity the C side reports has a Go answer")

	words := cheader.Packets()
	want2 := cmdbuf.AppendWait(nil, cmdbuf.Wait{Drain: 3, Hold: 5})
	want2 = cmdbuf.AppendCache(want2, cmdbuf.CacheOp{Flush: 1, Invalidate: 2, Addr: 0x123456789a, Size: 0x1000}, true)
	want2 = cmdbuf.AppendDecompress(want2, cmdbuf.SurfaceRegion{Surface: 7, Offset: 0x200000000, Size: 0x300}, false)
	want2 = cmdbuf.AppendMetadataInit(want2, cmdbuf.SurfaceRegion{Surface: 7, Value: 0x55, Offset: 0x10, Size: 0x20, Plain: true, Discard: true}, true)
	want2 = cmdbuf.AppendEventSignal(want2, cmdbuf.Event{ID: 9, Stages: cmdbuf.AllStages})
	want2 = cmdbuf.AppendEventWait(want2, cmdbuf.Event{ID: 9, Stages: cmdbuf.StagePixel.Mask()})
	assert.Equal(t, want2, words)
}
