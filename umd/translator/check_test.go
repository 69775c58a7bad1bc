package translator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/umd/translator"
)

// splitRequest is a call of a texture barrier that ends a split begun
// under event 7 and another that begins one under event 9, on surface 3
// (4 KiB of data).
func splitRequest() *translator.Request {
	tex := func(before, after ddi.BarrierSync) ddi.Barrier {
		return ddi.NewTextureBarrier(ddi.TextureBarrier{SyncBefore: before, SyncAfter: after,
			AccessBefore: ddi.AccessRenderTarget, AccessAfter: ddi.AccessShaderResource,
			LayoutBefore: ddi.LayoutRenderTarget, LayoutAfter: ddi.LayoutShaderResource, Resource: 0x10})
	}
	bs := []ddi.Barrier{tex(ddi.SyncSplit, ddi.SyncPixelShading), tex(ddi.SyncRenderTarget, ddi.SyncSplit)}
	data := translator.Range{Lo: 0x10000, Hi: 0x11000}
	f := translator.Fact{Kind: translator.KindTexture, Surface: 3, Data: data, Selected: data}
	end, begin := f, f
	end.EndEvent = 7
	return &translator.Request{Entry: translator.Entry0094, ListType: ddi.CommandListTypeDirect, Call: 2, SplitEvent: 9,
		Records: ddi.AppendEncodedBarriers(nil, bs), Facts: []translator.Fact{end, begin}}
}

// TestCheckNamesWhatIsWrong: a reply may only name the call's surfaces,
// inside their data, signal the call's event, and wait for its ends'.
func TestCheckNamesWhatIsWrong(t *testing.T) {
	req := splitRequest()
	ok := cmdbuf.AppendEventWait(nil, cmdbuf.Event{ID: 7, Stages: cmdbuf.StagePixel.Mask()})
	ok = cmdbuf.AppendDecompress(ok, cmdbuf.SurfaceRegion{Surface: 3, Offset: 0x800, Size: 0x800}, true)
	ok = cmdbuf.AppendEventSignal(ok, cmdbuf.Event{ID: 9, Stages: cmdbuf.StageBlit.Mask()})
	ok = cmdbuf.AppendNop(ok, 2)
	assert.NoError(t, translator.Check(req, ok))

	for _, c := range []struct {
		name  string
		words []uint32
		dword int
		want  string
	}{
		{"foreign surface", cmdbuf.AppendDecompress(nil, cmdbuf.SurfaceRegion{Surface: 4, Size: 256}, false), 0, "surface 4, which none of the call's textures has"},
		{"past the surface", cmdbuf.AppendMetadataInit(cmdbuf.AppendNop(nil, 0), cmdbuf.SurfaceRegion{Surface: 3, Offset: 0x800, Size: 0x1000}, false), 1, "the surface's data is 0x1000 bytes"},
		{"empty region", cmdbuf.AppendDecompress(nil, cmdbuf.SurfaceRegion{Surface: 3}, false), 0, "of surface 3 bytes 0x0+0x0"},
		{"another event", cmdbuf.AppendEventSignal(nil, cmdbuf.Event{ID: 8}), 0, "EVENT_SIGNAL of event 8; the call's split begins signal event 9"},
		{"a wait for no end", cmdbuf.AppendEventWait(nil, cmdbuf.Event{ID: 9}), 0, "EVENT_WAIT for event 9, which none of the call's split ends names"},
		{"a wait for event 0", cmdbuf.AppendEventWait(nil, cmdbuf.Event{ID: 0}), 0, "EVENT_WAIT for event 0"},
		{"a marker", cmdbuf.AppendMarker(nil, 1, "mine"), 0, "MARKER (opcode 0x01) is not a translator's packet"},
		{"a call", cmdbuf.AppendCall(nil, cmdbuf.Call{Buffer: 1}), 0, "CALL (opcode 0x40)"},
		{"cut short", cmdbuf.AppendWait(nil, cmdbuf.Wait{Drain: 1, Hold: 1})[:2], 0, "runs past the end"},
		{"unknown stage", cmdbuf.AppendWait(nil, cmdbuf.Wait{Drain: 1 << 20, Hold: 1}), 0, "stage mask"},
	} {
		err := translator.Check(req, c.words)
		var re *translator.ReplyError
		if assert.ErrorAs(t, err, &re, c.name) {
			assert.Equal(t, c.dword, re.Dword, c.name)
			assert.Contains(t, err.Error(), c.want, c.name)
		}
	}
	// A reply past its budget is refused at the dword the budget ends.
	flood := cmdbuf.AppendNop(nil, 0xffff)
	err := translator.Check(req, flood)
	var re *translator.ReplyError
	if assert.ErrorAs(t, err, &re) {
		assert.Equal(t, req.ReplyBudget(), re.Dword)
		assert.ErrorContains(t, err, "the reply has 65536 dwords; a call of 2 records, 0 regions and 0 aliased metadata ranges may have at most 4224")
	}
	// A call with no split begin signals nothing.
	noBegin := splitRequest()
	noBegin.SplitEvent = 0
	assert.ErrorContains(t, translator.Check(noBegin, cmdbuf.AppendEventSignal(nil, cmdbuf.Event{ID: 9})), "(0: it has none)")
}
