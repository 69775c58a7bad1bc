package umd

import (
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

// queued is an Opener whose translators are Pipeliners in process: the
// reference's translation, refusing the call numbered refuse (0: none),
// with a queue of at most depth calls.
type queued struct {
	refuse, depth int
}

func (queued) Name() string { return "queued" }
func (o queued) Open(p *hwmodel.Profile) (translator.Translator, error) {
	return queuedTranslator{o, NewReference(p)}, nil
}

type queuedTranslator struct {
	o   queued
	ref *Reference
}

func (t queuedTranslator) Translate(req *translator.Request, dst []uint32) ([]uint32, error) {
	if int(req.Call) == t.o.refuse {
		return dst, &translator.Refusal{Reason: "not this one"}
	}
	return t.ref.Translate(req, dst)
}

func (t queuedTranslator) Pipeline() translator.Pipeline { return &queue{t: t} }

// queue keeps copies of the requests sent, as frames, and translates each
// when its reply is asked for.
type queue struct {
	t    queuedTranslator
	reqs [][]byte
}

func (q *queue) Send(req *translator.Request) bool {
	if len(q.reqs) >= q.t.o.depth {
		return false
	}
	q.reqs = append(q.reqs, translator.AppendRequest(nil, req)[translator.FrameHeaderSize:])
	return true
}

func (q *queue) Receive(dst []uint32) ([]uint32, error) {
	var req translator.Request
	if err := translator.DecodeRequest(q.reqs[0], &req); err != nil {
		return dst, err
	}
	q.reqs = q.reqs[1:]
	return q.t.Translate(&req, dst)
}

func (q *queue) Len() int { return len(q.reqs) }
func (q *queue) Drop()    { q.reqs = nil }

// listRecording is what a list recorded, for comparison.
type listRecording struct {
	words   []uint32
	records []BarrierRecord
	ops     []SurfaceOp
	patches []stagedPatch
	warns   []Message
	err     string
}

// stagedPatch is a patch by its resource's handle.
type stagedPatch struct {
	pos cmdbuf.Pos
	res ddi.HResource
	sub uint32
}

func recordedBy(cl *CommandList, closeErr error) listRecording {
	r := listRecording{words: cl.Buffer().Words(), records: slices.Clone(cl.Records()), ops: slices.Clone(cl.ops)}
	for _, p := range cl.patches {
		r.patches = append(r.patches, stagedPatch{p.pos, p.res.Handle, p.sub})
	}
	if len(cl.Warnings()) > 0 {
		r.warns = slices.Clone(cl.Warnings())
	}
	if closeErr != nil {
		r.err = closeErr.Error()
	}
	return r
}

// TestPipelinedListRecordsAsCallByCall: a list whose calls are queued
// and answered when its packets are needed records what it records call
// by call: the packets, across chunks, the records, the surface work, the
// patches of accesses staged behind a queued call; and a refused call
// stops the list there, with what later commands recorded dropped, their
// messages included.
func TestPipelinedListRecordsAsCallByCall(t *testing.T) {
	record := func(opts Options, refuse int) listRecording {
		e := newEnv(t, "discrete", opts)
		b := e.buffer("B", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		out := e.buffer("OUT", 64*64*4, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		rt := e.texture("RT", 64, 64, ddi.ResourceFlagRenderTarget|ddi.ResourceFlagShaderResource, ddi.LayoutRenderTarget)
		other := e.texture("OTHER", 64, 64, ddi.ResourceFlagRenderTarget|ddi.ResourceFlagShaderResource, ddi.LayoutRenderTarget)
		cl := e.list(ddi.CommandListTypeDirect)
		uav := buf(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessUnorderedAccess, b)
		for i := 0; i < 150; i++ { // past a chunk of the buffer
			cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(b)}}})
			cl.Barrier([]ddi.Barrier{uav})
			// OTHER's layout is not the list's to know: its access is patched at submission.
			cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeTexture(other)}, UnorderedAccess: []View{WholeBuffer(out)}}})
			cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
			cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncComputeShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
				ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, rt)})
			cl.CopyBufferRegion(out, 0, b, 0, 256)
			cl.Barrier([]ddi.Barrier{tex(ddi.SyncComputeShading, ddi.SyncRenderTarget, ddi.AccessShaderResource, ddi.AccessRenderTarget,
				ddi.LayoutDirectQueueShaderResource, ddi.LayoutRenderTarget, rt)})
			if refuse > 0 && i == 1 {
				cl.Barrier(nil) // a warning, after the refused call
				cl.Barrier([]ddi.Barrier{tex(ddi.SyncComputeShading, ddi.SyncRenderTarget, ddi.AccessShaderResource, ddi.AccessRenderTarget,
					ddi.LayoutCommon, ddi.LayoutRenderTarget, b)}) // invalid: a buffer in a texture barrier
			}
		}
		return recordedBy(cl, cl.Close())
	}
	for _, depth := range []int{1, 3, 1000} {
		want := record(Options{Translator: queuedOpener{queued{}}}, 0)
		got := record(Options{Translator: queued{depth: depth}}, 0)
		require.NotEmpty(t, want.patches)
		require.Greater(t, len(want.words), 3*4096)
		assert.Equal(t, want, got, "queue of %d", depth)

		want = record(Options{Translator: queuedOpener{queued{refuse: 9}}}, 9)
		got = record(Options{Translator: queued{refuse: 9, depth: depth}}, 9)
		assert.Contains(t, want.err, "Barrier #9")
		assert.Equal(t, want, got, "queue of %d, the ninth command refused", depth)
	}
}

// queuedOpener is a queued translator that is no Pipeliner: its calls
// take the synchronous path.
type queuedOpener struct{ o queued }

func (o queuedOpener) Name() string { return o.o.Name() }
func (o queuedOpener) Open(p *hwmodel.Profile) (translator.Translator, error) {
	t, err := o.o.Open(p)
	return struct{ translator.Translator }{t}, err
}
