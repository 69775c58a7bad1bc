package umd

import (
	"errors"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestForeignObjectsAreRefused: a list recorded on one device does not run
// on another's queue (it would write that device's memory), nor does a
// fence of another device order anything; nil fences are errors, not
// panics.
func TestForeignObjectsAreRefused(t *testing.T) {
	a, b := newEnv(t, "discrete", Options{}), newEnv(t, "discrete", Options{})
	buf := a.buffer("B", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	cl := a.list(ddi.CommandListTypeDirect)
	cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{BufferRange(buf, 0, 4096)}}})
	require.NoError(t, cl.Close())
	assert.ErrorIs(t, b.direct.ExecuteCommandLists(cl), ErrForeignObject)
	require.NoError(t, b.d.WaitIdle())
	assert.Empty(t, b.d.Machine().Hazards())

	f := a.d.CreateFence()
	assert.ErrorIs(t, b.direct.Signal(f, 1), ErrForeignObject)
	assert.ErrorIs(t, b.direct.Wait(f, 1), ErrForeignObject)
	assert.ErrorContains(t, a.direct.Signal(nil, 1), "nil")
	assert.ErrorContains(t, a.direct.Wait(nil, 1), "nil")
	var none *Fence
	assert.Zero(t, none.Value())
	require.NoError(t, a.direct.Signal(f, 7))
	require.NoError(t, a.d.WaitIdle())
	assert.Equal(t, uint64(7), f.Value())
}

// TestGPUFaultIsWaitIdlesError: a fault while the GPU runs what was
// submitted is the error of the WaitIdle that ran it.
func TestGPUFaultIsWaitIdlesError(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	e.direct.Engine().Submit(cmdbuf.FromWords([]uint32{0xfff00001}))
	err := e.d.WaitIdle()
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrGPUFault), "%v", err)
	assert.NotEmpty(t, e.d.Machine().Faults())
	require.NoError(t, e.d.WaitIdle(), "an idle GPU does not fault again")
}
