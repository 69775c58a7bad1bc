package umd

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
)

// recording is what a list holds once closed: its packets, barrier records,
// their surface work and its warnings.
type recording struct {
	lines    []cmdbuf.Line
	records  []BarrierRecord
	ops      []SurfaceOp
	warnings []Message
}

// recordingOf is what cl holds, its WORK packets' ids (the device's, unique
// to each recording) left out.
func recordingOf(cl *CommandList) recording {
	r := recording{lines: cmdbuf.Listing(cl.Buffer(), nil), records: append([]BarrierRecord(nil), cl.Records()...),
		warnings: append([]Message(nil), cl.Warnings()...)}
	for i := range r.lines {
		r.lines[i].Text = workID.ReplaceAllString(r.lines[i].Text, "id=N")
	}
	for _, rec := range cl.Records() {
		r.ops = append(r.ops, cl.SurfaceOps(rec)...)
	}
	return r
}

var workID = regexp.MustCompile(`\bid=[0-9]+`)

// TestResetRecordsAsNew: a list reset and recorded again holds exactly
// what a new list recording the same commands holds (packets, split events,
// ordinals, records, warnings; nothing of the tracking or patches of the
// last recording), whether its last submission is still pending (a new
// command buffer: the submission keeps the old) or complete (the old
// buffer, reused; as it is at once when the submission took a patched
// copy).
func TestResetRecordsAsNew(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	rt := e.texture("RT", 64, 64, ddi.ResourceFlagRenderTarget|ddi.ResourceFlagShaderResource, ddi.LayoutCommon)
	out := e.buffer("OUT", 64*64*4, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	record := func(cl *CommandList) {
		// A barrier first: what the list does to RT does not wait for
		// RT's layout at submission (no patch).
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncNone, ddi.SyncRenderTarget, ddi.AccessNoAccess, ddi.AccessRenderTarget,
			ddi.LayoutCommon, ddi.LayoutRenderTarget, rt)})
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncSplit, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, rt)})
		cl.Barrier(nil) // a warning
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncSplit, ddi.SyncComputeShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, rt)})
		cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeTexture(rt)}, UnorderedAccess: []View{WholeBuffer(out)}}})
		// Back to COMMON, where the next recording starts: RT is
		// decompressed (surface work).
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncComputeShading, ddi.SyncNone, ddi.AccessShaderResource, ddi.AccessNoAccess,
			ddi.LayoutDirectQueueShaderResource, ddi.LayoutCommon, rt)})
		require.NoError(t, cl.Close())
	}
	cl := e.list(ddi.CommandListTypeDirect)
	record(cl)
	want := recordingOf(cl)
	require.NotEmpty(t, want.records)
	require.NotEmpty(t, want.ops)
	require.NotEmpty(t, want.warnings)

	first := cl.Buffer()
	require.NoError(t, e.direct.ExecuteCommandLists(cl))
	require.NoError(t, cl.Reset())
	assert.NotSame(t, first, cl.Buffer(), "the pending submission keeps its buffer")
	record(cl)
	assert.Equal(t, want, recordingOf(cl), "recorded again while the last submission is pending")
	require.NoError(t, e.direct.ExecuteCommandLists(cl))
	require.NoError(t, e.d.WaitIdle())

	second := cl.Buffer()
	require.NoError(t, cl.Reset())
	assert.Same(t, second, cl.Buffer(), "a buffer no submission holds is reused")
	record(cl)
	assert.Equal(t, want, recordingOf(cl), "recorded again after the submissions completed")
	require.NoError(t, e.direct.ExecuteCommandLists(cl))
	require.NoError(t, e.d.WaitIdle())

	// RT read before any barrier on it (in COMMON): whether the read is
	// compressed is patched at submission, into a copy of the buffer,
	// which the list may reuse at once; the patch is not the next
	// recording's.
	third := cl.Buffer()
	require.NoError(t, cl.Reset())
	cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeTexture(rt)}, UnorderedAccess: []View{WholeBuffer(out)}}})
	require.NoError(t, cl.Close())
	require.NotEmpty(t, cl.patches)
	require.NoError(t, e.direct.ExecuteCommandLists(cl))
	require.NoError(t, cl.Reset())
	assert.Same(t, third, cl.Buffer(), "the submission holds a patched copy")
	assert.Empty(t, cl.patches)
	require.NoError(t, cl.Close())
	require.NoError(t, e.d.WaitIdle())
	require.Empty(t, e.d.Machine().Faults())
	e.clean(rt, out)
}

// TestResetAfterFailedRecording: a reset clears the error that stopped the
// last recording and the concurrency flag, and reopens a closed list.
func TestResetAfterFailedRecording(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	b := e.buffer("B", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	cl := e.list(ddi.CommandListTypeDirect)
	cl.Barrier([]ddi.Barrier{buf(ddi.SyncNone, ddi.SyncComputeShading, ddi.AccessNoAccess, ddi.AccessRenderTarget, b)})
	requireMessage(t, cl.Close(), MsgIncompatibleBarrierSync)
	cl.concurrent.Store(true)
	require.NoError(t, cl.Reset())
	require.NoError(t, cl.Err())
	cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(b)}}})
	e.run(cl)
	e.clean(b)
}

// A MARKER's number is stepped from the last one's, not formatted: it reads
// as strconv writes it across carries, a new digit, a repeat, a reset to 0
// or to one less, and a jump, and for every count up to 20000.
func TestMarkerNumber(t *testing.T) {
	cl := &CommandList{}
	for _, n := range []int{1, 2, 9, 10, 11, 99, 100, 100, 101, 999, 1000, 0, 1, 2, 1, 123456789, 123456790, 9999999999, 10000000000} {
		cl.commands = n
		assert.Equal(t, strconv.Itoa(n), string(cl.decimal()), "count %d", n)
	}
	for n := 1; n <= 20000; n++ {
		cl.commands = n
		if got := string(cl.decimal()); got != strconv.Itoa(n) {
			t.Fatalf("count %d reads %q", n, got)
		}
	}
	// The MARKERs themselves, stepped as commands alternate names:
	// cmdbuf.AppendMarker's bytes.
	cl = &CommandList{}
	names := []string{"Barrier", "Draw", "DrawIndexedInstanced"}
	for n := 1; n <= 20000; n++ {
		cl.commands = n
		name := names[n%7%3]
		want := cmdbuf.AppendMarker(nil, uint32(n), name+" #"+strconv.Itoa(n))
		if got := cl.appendMarker(nil, name); !slices.Equal(got, want) {
			t.Fatalf("count %d: %x, want %x", n, got, want)
		}
	}
}

// A MARKER's text keeps its name and number as commands alternate, as the
// number gains digits and as it goes back to fewer.
func TestMarkerText(t *testing.T) {
	cl := &CommandList{}
	names := []string{"Barrier", "Barrier", "Draw", "DrawIndexedInstanced", "Barrier", "Dispatch"}
	counts := []int{1, 2, 8, 9, 10, 11, 99, 100, 101, 100, 7, 1000, 1001, 12345, 3}
	for i, n := range counts {
		for j, name := range names {
			cl.commands = n + j
			words := cl.appendMarker(nil, name)
			p, err := cmdbuf.Decode(words, 0)
			require.NoError(t, err, "%s #%d", name, n+j)
			require.Equal(t, len(words), 1+len(p.Payload))
			m := p.Marker()
			assert.Equal(t, fmt.Sprintf("%s #%d", name, n+j), m.Text, "round %d", i)
			assert.Equal(t, uint32(n+j), m.Tag)
			assert.Equal(t, cmdbuf.AppendMarker(nil, uint32(n+j), m.Text), words, "the bytes cmdbuf.AppendMarker writes")
		}
	}
}

// Packets are encoded in the command buffer's free room (cmdbuf.Tail):
// over a list long enough to fill several chunks, its barriers and draws
// arrive whole and in order, their MARKERs numbered 1 to n through every
// chunk boundary and every new digit. A list reset while its submission
// is pending records into a new buffer: the submission still reads its
// packets, and both run clean.
func TestRecordingInPlaceAcrossChunksAndSubmissions(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	rt := e.texture("RT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
	toSR := tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
		ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, rt)
	toRT := tex(ddi.SyncPixelShading, ddi.SyncRenderTarget, ddi.AccessShaderResource, ddi.AccessRenderTarget,
		ddi.LayoutDirectQueueShaderResource, ddi.LayoutRenderTarget, rt)
	cl := e.list(ddi.CommandListTypeDirect)
	record := func() int {
		for range 700 { // the barrier first: the list knows the layout, so its draws need no patch at submission
			cl.Barrier([]ddi.Barrier{toSR, toRT})
			cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
		}
		require.NoError(t, cl.Close())
		return 1400
	}
	check := func(b *cmdbuf.Buffer, n int) {
		t.Helper()
		require.Greater(t, len(b.Chunks()), 3, "the list fills several chunks")
		want := uint32(1)
		require.NoError(t, b.Walk(func(_ int, p cmdbuf.Packet, err error) error {
			require.NoError(t, err)
			if p.Op() == cmdbuf.OpMarker {
				require.Equal(t, want, p.MarkerTag())
				text := string(p.AppendMarkerText(nil))
				require.Contains(t, []string{"Barrier #" + strconv.Itoa(int(want)), "Draw #" + strconv.Itoa(int(want))}, text)
				want++
			}
			return nil
		}))
		require.Equal(t, uint32(n+1), want)
	}
	n := record()
	first := cl.buf
	check(first, n)
	require.NoError(t, e.direct.ExecuteCommandLists(cl))
	require.Empty(t, cl.patches)
	require.NoError(t, cl.Reset()) // the submission is pending and holds the buffer: a new one
	require.NotSame(t, first, cl.buf)
	n = record()
	check(cl.buf, n)
	check(first, n) // untouched by the second recording
	require.NoError(t, e.direct.ExecuteCommandLists(cl))
	require.NoError(t, e.d.WaitIdle())
	require.Empty(t, e.d.Machine().Faults())
	e.clean(rt)
}
