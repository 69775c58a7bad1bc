package hwmodel

import (
	"errors"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/require"
)

func TestRewriterReplacesASubmission(t *testing.T) {
	p, err := LookupProfile("coherent")
	require.NoError(t, err)
	r := newRig(t, p)
	a := r.alloc("A", 4096)
	var seen []*Engine
	r.m.SetRewriter(func(e *Engine, bufs []*cmdbuf.Buffer) ([]*cmdbuf.Buffer, error) {
		seen = append(seen, e)
		// Drop the WAIT between the two: the reader then races the writer.
		out := cmdbuf.NewBuffer(0)
		for _, b := range bufs {
			require.NoError(t, b.Walk(func(_ int, p cmdbuf.Packet, err error) error {
				if p.Op() != cmdbuf.OpWait && p.Op() != cmdbuf.OpChain {
					out.Append(append([]uint32{uint32(p.Header)}, p.Payload...))
				}
				return err
			}))
		}
		return []*cmdbuf.Buffer{out}, nil
	})
	r.run(r.direct, r.prog().
		work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, wr(a, 256, cmdbuf.ClientShaderStore)).
		wait(stages(cmdbuf.StageCompute), stages(cmdbuf.StagePixel)).
		work(cmdbuf.WorkDraw, cmdbuf.StagePixel, rd(a, 256, cmdbuf.ClientShaderLoad)))
	require.Equal(t, []*Engine{r.direct}, seen)
	require.Zero(t, r.direct.Counters().PacketCount(cmdbuf.OpWait))
	require.Len(t, r.m.Hazards(), 1)
	require.Equal(t, HazardReadAfterWrite, r.m.Hazards()[0].Kind)
}

func TestRewriterRefusalFaultsTheSubmission(t *testing.T) {
	p, err := LookupProfile("coherent")
	require.NoError(t, err)
	r := newRig(t, p)
	a := r.alloc("A", 4096)
	r.m.SetRewriter(func(*Engine, []*cmdbuf.Buffer) ([]*cmdbuf.Buffer, error) {
		return nil, errors.New("no thanks")
	})
	r.direct.Submit(r.prog().work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, wr(a, 256, cmdbuf.ClientShaderStore)).buffer())
	require.NoError(t, r.m.Run())
	require.Len(t, r.m.Faults(), 1)
	require.Contains(t, r.m.Faults()[0].Reason, "rewriting the submission: no thanks")
	require.Zero(t, r.direct.Counters().PacketCount(cmdbuf.OpWork), "a refused submission runs nothing")
	r.m.SetRewriter(nil)
	r.direct.Submit(r.prog().work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, wr(a, 256, cmdbuf.ClientShaderStore)).buffer())
	require.NoError(t, r.m.Run())
	require.Len(t, r.m.Faults(), 1)
	require.Equal(t, uint64(1), r.direct.Counters().PacketCount(cmdbuf.OpWork), "later submissions run")
}

func TestSurfaceBlocks(t *testing.T) {
	p, err := LookupProfile("discrete")
	require.NoError(t, err)
	r := newRig(t, p)
	s := r.surface("S", 1024, 1, false)
	_, ok := r.m.Surface(2)
	require.False(t, ok)
	sb, ok := r.m.Surface(1)
	require.True(t, ok)
	require.Equal(t, SurfaceBlocks{ID: 1, Base: s, Size: 1024, Meta: s + 1024, Codes: []byte{0, 0, 0, 0}}, sb)
	require.NoError(t, r.m.InitializeMetadataPlain(1))
	r.run(r.direct, r.prog().work(cmdbuf.WorkDraw, cmdbuf.StageColor, onSurface(wr(s+256, 256, cmdbuf.ClientColor), 1, true)))
	sb, _ = r.m.Surface(1)
	require.Equal(t, []byte{MetaPlain, MetaCompressed, MetaPlain, MetaPlain}, sb.Codes)
}
