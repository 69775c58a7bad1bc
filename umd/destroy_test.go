package umd

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func requireMessage(t *testing.T, err error, id MessageID) *Message {
	t.Helper()
	var m *Message
	require.True(t, errors.As(err, &m), "want message %s, got %v", id.Name(), err)
	assert.Equal(t, id, m.ID, "%s", m)
	return m
}

// TestDestroyGivesMemoryBack: a destroyed committed resource's memory is
// the GPU's again; so is a destroyed heap's.
func TestDestroyGivesMemoryBack(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	const big = 6 << 30
	a := e.buffer("A", big, 0, resource.HeapDefault)
	b := e.buffer("B", big, 0, resource.HeapDefault)
	_, err := e.d.CreateCommitted(BufferDesc(big, 0), resource.HeapDefault)
	require.ErrorIs(t, err, hwmodel.ErrOutOfMemory, "16 GiB hold two")
	require.NoError(t, e.d.DestroyResource(a))
	c, err := e.d.CreateCommitted(BufferDesc(big, 0), resource.HeapDefault)
	require.NoError(t, err, "A's memory came back")

	_, err = e.d.CreateHeap(resource.HeapDefault, big)
	require.Error(t, err, "B and C hold 12 of 16 GiB")
	require.NoError(t, e.d.DestroyResource(b))
	h, err := e.d.CreateHeap(resource.HeapDefault, big)
	require.NoError(t, err)
	require.NoError(t, e.d.DestroyHeap(h))
	_, err = e.d.CreateCommitted(BufferDesc(big, 0), resource.HeapDefault)
	require.NoError(t, err, "the heap's memory came back")
	_ = c
}

// TestDestroyWhileInUse: a resource a submission uses cannot be destroyed
// until the GPU is idle; then it can.
func TestDestroyWhileInUse(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	src := e.buffer("SRC", 4096, 0, resource.HeapDefault)
	dst := e.buffer("DST", 4096, 0, resource.HeapDefault)
	cl := e.list(ddi.CommandListTypeDirect)
	cl.CopyBufferRegion(dst, 0, src, 0, 4096)
	require.NoError(t, cl.Close())
	require.NoError(t, e.direct.ExecuteCommandLists(cl))

	m := requireMessage(t, e.d.DestroyResource(src), MsgDeletedWhileInUse)
	assert.Equal(t, "SRC", m.Value, "the message names the resource")
	_, ok := e.d.Resource(src)
	assert.True(t, ok, "a refused destruction destroys nothing")

	require.NoError(t, e.d.WaitIdle())
	require.NoError(t, e.d.DestroyResource(src))
	m = requireMessage(t, e.d.DestroyResource(src), MsgInvalidHandle)
	assert.Contains(t, m.Rule, "SRC was already destroyed")
}

// TestUseAfterDestroy: barriers and work that name a destroyed resource
// fail naming it, and a list recorded before the destruction fails at
// ExecuteCommandLists.
func TestUseAfterDestroy(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	b := e.buffer("B", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	early := e.list(ddi.CommandListTypeDirect)
	early.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{BufferRange(b, 0, 4096)}}})
	require.NoError(t, early.Close())
	require.NoError(t, e.d.DestroyResource(b))

	err := e.direct.ExecuteCommandLists(early)
	m := requireMessage(t, err, MsgDestroyedObject)
	assert.Equal(t, "B", m.Value)

	bar := e.list(ddi.CommandListTypeDirect)
	bar.Barrier([]ddi.Barrier{buf(ddi.SyncComputeShading, ddi.SyncCopy, ddi.AccessUnorderedAccess, ddi.AccessCopySource, b)})
	m = requireMessage(t, bar.Err(), MsgDestroyedObject)
	assert.Equal(t, "B", m.Value)
	assert.Equal(t, "pResource", m.Field)

	ranged := e.list(ddi.CommandListTypeDirect)
	ranged.Barrier([]ddi.Barrier{ddi.NewRangedBarrier(ddi.RangedBarrier{Flags: ddi.RangedBarrierFlagAtomicCopy, Resource: b,
		Range: ddi.Range{Begin: 0, End: 8}})})
	requireMessage(t, ranged.Err(), MsgDestroyedObject)

	work := e.list(ddi.CommandListTypeDirect)
	work.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{BufferRange(b, 0, 4096)}}})
	m = requireMessage(t, work.Err(), MsgDestroyedObject)
	assert.Equal(t, "B", m.Value)

	// A list that met B before its destruction does not find it in its
	// own tables either.
	again := e.list(ddi.CommandListTypeDirect)
	c := e.buffer("C", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	again.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{BufferRange(c, 0, 4096)}}})
	require.NoError(t, e.d.DestroyResource(c))
	again.Barrier([]ddi.Barrier{buf(ddi.SyncComputeShading, ddi.SyncCopy, ddi.AccessUnorderedAccess, ddi.AccessCopySource, c)})
	requireMessage(t, again.Err(), MsgDestroyedObject)
}

// TestDestroyHeapRules: a heap with placed resources cannot be destroyed,
// nor a committed resource's heap apart from it.
func TestDestroyHeapRules(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	h, err := e.d.CreateHeap(resource.HeapDefault, 1<<20)
	require.NoError(t, err)
	p, err := e.d.CreatePlaced(h, 0, BufferDesc(4096, 0))
	require.NoError(t, err)
	require.NoError(t, e.d.SetName(p, "P"))
	m := requireMessage(t, e.d.DestroyHeap(h), MsgDeletedWhileInUse)
	assert.Contains(t, m.Rule, "P")
	require.NoError(t, e.d.DestroyResource(p))
	require.NoError(t, e.d.DestroyHeap(h))
	requireMessage(t, e.d.DestroyHeap(h), MsgInvalidHandle)

	c := e.buffer("C", 4096, 0, resource.HeapDefault)
	r, _ := e.d.Resource(c)
	m = requireMessage(t, e.d.DestroyHeap(r.Heap.Handle), MsgInvalidHandle)
	assert.Contains(t, m.Rule, "committed")
	require.NoError(t, e.d.DestroyResource(c))
	_, ok := e.d.Heap(r.Heap.Handle)
	assert.False(t, ok, "the committed heap went with its resource")
}

// TestDestroyedCommandList: a destroyed list records, closes and runs no
// more.
func TestDestroyedCommandList(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	cl := e.list(ddi.CommandListTypeDirect)
	cl.Destroy()
	cl.Barrier([]ddi.Barrier{glob(ddi.SyncAll, ddi.SyncAll, ddi.AccessCommon, ddi.AccessCommon)})
	requireMessage(t, cl.Err(), MsgDestroyedObject)
	requireMessage(t, cl.Close(), MsgDestroyedObject)
	cl.Reset()
	requireMessage(t, cl.Err(), MsgDestroyedObject)
	assert.ErrorContains(t, e.direct.ExecuteCommandLists(cl), "was destroyed")
}

// TestRefusedCreationKeepsNothing: a committed creation refused after its
// heap was mapped (no compression surface left) gives the memory back, so
// later creations still find it; destroyed surfaces' ids are used again.
func TestRefusedCreationKeepsNothing(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	e.d.nextSurface = 0xffff                                                                            // as if 65535 surfaces were live
	desc := Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 16384, 16384, 1, 1, rtFlags, ddi.LayoutRenderTarget) // 1 GiB
	for range 20 {
		_, err := e.d.CreateCommitted(desc, resource.HeapDefault)
		require.ErrorContains(t, err, "no compression surface left")
	}
	_, err := e.d.CreateCommitted(BufferDesc(8<<30, 0), resource.HeapDefault)
	require.NoError(t, err, "20 refused 1 GiB textures kept no memory")

	e.d.nextSurface = 0
	a, err := e.d.CreateCommitted(Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 64, 64, 1, 1, rtFlags, ddi.LayoutRenderTarget), resource.HeapDefault)
	require.NoError(t, err)
	ra, _ := e.d.Resource(a)
	id := ra.Surface
	require.NotZero(t, id)
	require.NoError(t, e.d.DestroyResource(a))
	e.d.nextSurface = 0xffff
	b, err := e.d.CreateCommitted(Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 64, 64, 1, 1, rtFlags, ddi.LayoutRenderTarget), resource.HeapDefault)
	require.NoError(t, err, "the destroyed texture's surface id is free again")
	rb, _ := e.d.Resource(b)
	assert.Equal(t, id, rb.Surface)
}

// TestDestroyDependsOnWorkThatUsesIt: with work in flight, a resource or
// heap that no submitted work uses is destroyed at once (issue 32: every
// committed resource and heap was refused with #921 while anything was in
// flight, so a correct multi-threaded program failed); one that work in
// flight uses is still refused. Memory unmapped while the GPU is busy
// comes back at the next WaitIdle, and until then a creation that needs it
// says so.
func TestDestroyDependsOnWorkThatUsesIt(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	used := e.buffer("USED", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	idle := e.buffer("IDLE", 6<<30, 0, resource.HeapDefault)
	other := e.buffer("OTHER", 6<<30, 0, resource.HeapDefault)
	h, err := e.d.CreateHeap(resource.HeapDefault, 1<<20)
	require.NoError(t, err)
	placed, err := e.d.CreatePlaced(h, 0, BufferDesc(4096, 0))
	require.NoError(t, err)
	empty, err := e.d.CreateHeap(resource.HeapDefault, 1<<20)
	require.NoError(t, err)

	cl := e.list(ddi.CommandListTypeDirect)
	cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(used)}}})
	require.NoError(t, cl.Close())
	require.NoError(t, e.direct.ExecuteCommandLists(cl)) // in flight until WaitIdle

	require.NoError(t, e.d.DestroyResource(idle), "nothing in flight uses IDLE")
	_, ok := e.d.Resource(idle)
	assert.False(t, ok)
	require.NoError(t, e.d.DestroyHeap(empty), "nothing is placed in the heap")
	require.NoError(t, e.d.DestroyResource(placed))
	require.NoError(t, e.d.DestroyHeap(h))
	m := requireMessage(t, e.d.DestroyResource(used), MsgDeletedWhileInUse)
	assert.Equal(t, "USED", m.Value, "work in flight uses USED: still refused")

	// IDLE's 6 GiB are unmapped once the GPU is idle: until then the GPU
	// holds USED, OTHER and IDLE, and another 6 GiB does not fit.
	_, err = e.d.CreateCommitted(BufferDesc(6<<30, 0), resource.HeapDefault)
	require.ErrorIs(t, err, hwmodel.ErrOutOfMemory)
	assert.ErrorContains(t, err, "bytes of destroyed heaps come back at the next WaitIdle")

	later := e.list(ddi.CommandListTypeDirect)
	later.CopyBufferRegion(other, 0, idle, 0, 4096)
	requireMessage(t, later.Err(), MsgDestroyedObject)

	require.NoError(t, e.d.WaitIdle())
	assert.Empty(t, e.d.Machine().Faults())
	e.clean(used)
	_, err = e.d.CreateCommitted(BufferDesc(6<<30, 0), resource.HeapDefault)
	require.NoError(t, err, "IDLE's memory came back at WaitIdle")
	require.NoError(t, e.d.DestroyResource(used), "USED's submission completed")
}

// TestDestroyWhileAnotherThreadSubmits: one goroutine keeps work in flight
// on one buffer while another creates and destroys buffers that work never
// uses — a correct program, which must see no error (go test -race).
func TestDestroyWhileAnotherThreadSubmits(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	used := e.buffer("USED", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	submit := func() error {
		cl, err := e.d.CreateCommandList(ddi.CommandListTypeDirect)
		if err != nil {
			return err
		}
		cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(used)}}})
		if err := cl.Close(); err != nil {
			return err
		}
		return e.direct.ExecuteCommandLists(cl)
	}
	require.NoError(t, submit()) // work is in flight from here on
	const n = 50
	errs := make(chan error, 2*n)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range n {
			errs <- submit()
		}
	}()
	for i := range n {
		r, err := e.d.CreateCommitted(BufferDesc(1<<20, 0), resource.HeapDefault)
		if err == nil {
			err = e.d.DestroyResource(r)
		}
		if err != nil {
			errs <- fmt.Errorf("create/destroy %d: %w", i, err)
		}
	}
	<-done
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
	require.NoError(t, e.d.WaitIdle())
	assert.Empty(t, e.d.Machine().Faults())
}
