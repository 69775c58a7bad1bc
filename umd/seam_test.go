package umd

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/ebref/ebref/umd/translator"
)

// refuser refuses every call; failing opens fail.
type refuser struct{ failOpen bool }

func (o refuser) Name() string { return "refuser" }
func (o refuser) Open(*hwmodel.Profile) (translator.Translator, error) {
	if o.failOpen {
		return nil, errors.New("no such GPU")
	}
	return o, nil
}
func (refuser) Translate(*translator.Request, []uint32) ([]uint32, error) {
	return nil, &translator.Refusal{Reason: "not today"}
}

// TestTranslatorFailureStopsTheList: a translator's failure is the list's
// error, from Err and Close, and the list records nothing after it, one
// call later; a Reset records anew, and a device whose translator cannot
// be opened is not opened.
func TestTranslatorFailureStopsTheList(t *testing.T) {
	e := newEnv(t, "discrete", Options{Translator: refuser{}})
	b := e.buffer("B", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	cl := e.list(ddi.CommandListTypeDirect)
	uav := buf(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessUnorderedAccess, b)
	cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(b)}}})
	before := cl.Buffer().Len()
	cl.Barrier([]ddi.Barrier{uav})
	var te *translator.Error
	require.ErrorAs(t, cl.Err(), &te)
	assert.Equal(t, translator.ErrRefused, te.Kind)
	assert.Contains(t, te.Error(), "translator refuser: Barrier #2 (1 records): the translator refused the call: not today")
	assert.Equal(t, before, cl.Buffer().Len(), "the refused call records nothing")
	cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(b)}}})
	assert.Equal(t, before, cl.Buffer().Len(), "nor does the command after it")
	assert.ErrorAs(t, cl.Close(), &te)
	require.NoError(t, cl.Reset())
	assert.NoError(t, cl.Err(), "a Reset records anew")
	cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(b)}}})
	assert.Greater(t, cl.Buffer().Len(), 0)

	p, err := hwmodel.LookupProfile("discrete")
	require.NoError(t, err)
	_, err = Open(p, Options{Translator: refuser{failOpen: true}})
	assert.ErrorContains(t, err, "umd: opening translator refuser on discrete: no such GPU")
	d, err := Open(p, Options{Translator: refuser{}})
	require.NoError(t, err)
	assert.Nil(t, d.policy, "a translator that is no Policer keeps the reference's table")
}

// TestRecordReplyChecksAsCheck: record, which checks the common WAIT,
// CACHE, DECOMPRESS and METADATA_INIT packets itself and the rest through
// CheckPacket, accepts exactly the replies translator.Check accepts,
// stops the list on the others with Check's error, and sums an accepted
// reply's packets and records its surface operations as a decoding of
// them does: over the reference's own reply and mutations of it at every
// dword (headers with every defined flag and some undefined ones, lengths
// and opcodes near these, masks past the last stage or cache, surfaces
// and regions at the edges of the call's, truncations).
func TestRecordReplyChecksAsCheck(t *testing.T) {
	bb := newBarrierBench(t, "discrete")
	bb.cl.Barrier(bb.mixed)
	require.NoError(t, bb.cl.Err())
	req := &bb.cl.req
	good, err := (&Reference{caches: &bb.cl.d.caches}).translateCopy(req)
	require.NoError(t, err)
	require.NotEmpty(t, good)
	// A reply of every packet kind record meets: the reference's,
	// async caches, a NOP and the split events the request allows none of.
	good = cmdbuf.AppendCache(good, cmdbuf.CacheOp{Flush: cmdbuf.CacheMask(1), Addr: 64, Size: 64}, true)
	good = cmdbuf.AppendWait(good, cmdbuf.Wait{Drain: cmdbuf.AllStages, Hold: cmdbuf.AllStages})
	good = append(good, uint32(cmdbuf.MakeHeader(cmdbuf.OpNop, 0, 1)), 7)
	good = cmdbuf.AppendMetadataInit(good, cmdbuf.SurfaceRegion{Surface: 3, Offset: 0x100, Size: 0x200, Value: 7, Plain: true}, true)
	good = cmdbuf.AppendDecompress(good, cmdbuf.SurfaceRegion{Surface: 2, Offset: 0x4000 - 1, Size: 1}, false)

	values := []uint32{0, 1, uint32(cmdbuf.AllStages), uint32(cmdbuf.AllStages) + 1, uint32(cmdbuf.AllCaches),
		uint32(cmdbuf.AllCaches) + 1, 1 << 31, ^uint32(0), 0x100, 0x10002, 0x4000, 0x4001}
	for _, w := range good {
		values = append(values, w-1, w+1)
	}
	for _, op := range []cmdbuf.Opcode{cmdbuf.OpWait, cmdbuf.OpCache, cmdbuf.OpNop, cmdbuf.OpDecompress, cmdbuf.OpMetadataInit,
		cmdbuf.OpEventWait, cmdbuf.OpMarker} {
		for _, n := range []int{0, 1, 2, 3, 5, 6, 7} {
			for f := 0; f < 256; f++ {
				if f > 15 && f != 0x10 && f != 0x80 && f != 0xff {
					continue
				}
				values = append(values, uint32(cmdbuf.MakeHeader(op, uint8(f), n)))
			}
		}
	}
	replies := [][]uint32{good}
	for i := range good {
		replies = append(replies, good[:i])
		for _, v := range values {
			r := slices.Clone(good)
			r[i] = v
			replies = append(replies, r)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		r := make([]uint32, rng.IntN(24))
		for i := range r {
			r[i] = values[rng.IntN(len(values))]
			if rng.IntN(3) == 0 {
				r[i] = uint32(rng.IntN(64))
			}
		}
		replies = append(replies, r)
	}
	accepted := 0
	cl := bb.cl
	for _, r := range replies {
		want := translator.Check(req, r)
		// The call's record is the list's last, as translate leaves it.
		cl.ops, cl.xerr = cl.ops[:0], nil
		cl.records = append(cl.records[:0], BarrierRecord{})
		ok := cl.record(req, 1, slices.Clone(r), 0, &cl.records[0], nil)
		if want != nil {
			require.False(t, ok, "reply %x", r)
			require.NotNil(t, cl.xerr, "reply %x", r)
			assert.Empty(t, cl.records, "the refused call's record is dropped")
			var re *translator.ReplyError
			require.ErrorAs(t, want, &re, "reply %x", r)
			var te *translator.Error
			require.ErrorAs(t, cl.xerr, &te, "reply %x", r)
			require.Equal(t, translator.ErrReply, te.Kind, "reply %x", r)
			require.Equal(t, re.Dword, te.Dword, "reply %x", r)
			require.Equal(t, fmt.Sprintf("Barrier #1 (%d records): %s", len(req.Facts), re.Msg), te.Msg, "reply %x", r)
			continue
		}
		require.True(t, ok, "reply %x: %v", r, cl.xerr)
		rec := cl.records[0]
		accepted++
		var sum BarrierRecord
		ops := []SurfaceOp{}
		for off := 0; off < len(r); {
			p, err := cmdbuf.Decode(r, off)
			require.NoError(t, err)
			switch p.Op() {
			case cmdbuf.OpDecompress, cmdbuf.OpMetadataInit:
				g, work := p.Decompress(), "DECOMPRESS"
				if p.Op() == cmdbuf.OpMetadataInit {
					g, work = p.MetadataInit(), "METADATA_INIT clear"
					if g.Plain {
						work = map[bool]string{false: "METADATA_INIT plain", true: "METADATA_INIT discard"}[g.Discard]
					}
				}
				var hr ddi.HResource
				for i := range req.Facts {
					if req.Facts[i].Surface == uint32(g.Surface) {
						hr = req.Barrier(i).Texture().Resource
					}
				}
				ops = append(ops, SurfaceOp{Resource: hr, Surface: g.Surface, Work: work, Offset: g.Offset, Size: g.Size, Async: p.Async()})
			case cmdbuf.OpWait:
				sum.Waits++
				sum.Drain |= p.Wait().Drain
				sum.Hold |= p.Wait().Hold
			case cmdbuf.OpEventWait:
				sum.Waits++
				sum.Hold |= p.Event().Stages
			case cmdbuf.OpCache:
				sum.CacheOps++
				sum.Flush |= p.Cache().Flush
				sum.Invalidate |= p.Cache().Invalidate
			}
			off += p.Size()
		}
		require.Equal(t, len(ops), rec.NumOps, "reply %x", r)
		require.Equal(t, len(r), rec.Dwords, "reply %x", r)
		require.Equal(t, cl.buf.Len(), rec.End, "reply %x: the packets end the list", r)
		sum.NumOps, sum.Dwords, sum.End = rec.NumOps, rec.Dwords, rec.End
		require.Equal(t, sum, rec, "reply %x", r)
		require.Equal(t, ops, []SurfaceOp(bb.cl.ops), "reply %x", r)
	}
	assert.Greater(t, accepted, len(good), "some mutations are valid replies")
}

// translateCopy is the reference's reply to req, in a scratch of its own.
func (ref *Reference) translateCopy(req *translator.Request) ([]uint32, error) {
	return ref.translate(req, nil, new(scratch))
}
