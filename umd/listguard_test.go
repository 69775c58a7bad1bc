package umd

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestListGuardCoversCloseResetExecute: Close, Reset and
// ExecuteCommandLists take the list guard, so each one that overlaps a
// recording call, a Close, a Reset or (for Close, Reset and recording) an
// ExecuteCommandLists of the same list gets its error and changes nothing
// (issue 32: Reset racing ExecuteCommandLists and Close racing a recording
// thread were data races). The overlap is made deterministic by holding the
// guard as the other goroutine's call would.
func TestListGuardCoversCloseResetExecute(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	b := e.buffer("B", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	dispatch := func(cl *CommandList) { cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(b)}}}) }

	t.Run("while a recording call holds the list", func(t *testing.T) {
		cl := e.list(ddi.CommandListTypeDirect)
		dispatch(cl)
		require.True(t, cl.enter(), "as a recording call in another goroutine")
		m := requireMessage(t, cl.Close(), MsgInvalidWork)
		assert.Equal(t, "Close", m.Command)
		assert.Contains(t, m.Rule, "another goroutine is recording, closing, resetting or executing the command list")
		m = requireMessage(t, cl.Reset(), MsgInvalidWork)
		assert.Equal(t, "Reset", m.Command)
		cl.leave()
		require.NoError(t, cl.Close(), "the refused Close and Reset changed nothing")

		other := e.list(ddi.CommandListTypeDirect)
		require.NoError(t, other.Close())
		require.True(t, cl.enter(), "as a Reset in another goroutine")
		m = requireMessage(t, e.direct.ExecuteCommandLists(other, cl), MsgInvalidWork)
		assert.Equal(t, "list 1", m.Field)
		assert.Contains(t, m.Rule, "another goroutine is recording, closing or resetting the command list: nothing was submitted")
		cl.leave()
		assert.Equal(t, int32(0), other.guard.Load(), "a refused submission holds nothing")
		require.NoError(t, e.direct.ExecuteCommandLists(other, cl))
		require.NoError(t, e.d.WaitIdle())
		e.clean(b)
	})

	t.Run("while an ExecuteCommandLists reads the list", func(t *testing.T) {
		cl := e.list(ddi.CommandListTypeDirect)
		dispatch(cl)
		require.NoError(t, cl.Close())
		other := e.list(ddi.CommandListTypeDirect)
		dispatch(other)
		require.NoError(t, other.Close())
		require.True(t, cl.share(), "as an ExecuteCommandLists in another goroutine")
		requireMessage(t, cl.Reset(), MsgInvalidWork)
		requireMessage(t, cl.Close(), MsgInvalidWork)
		for _, l := range []*CommandList{other, cl, cl} { // in submissions of their own: the dispatches are not ordered within one
			require.NoError(t, e.direct.ExecuteCommandLists(l), "submissions of one list may overlap")
		}
		cl.unshare()
		assert.Equal(t, int32(0), cl.guard.Load(), "each submission let go")
		require.NoError(t, e.d.WaitIdle())

		// A recording call that comes while the list is being executed
		// records nothing and fails the list.
		require.NoError(t, cl.Reset())
		require.True(t, cl.share())
		dispatch(cl)
		cl.unshare()
		assert.Zero(t, cl.commands, "nothing was recorded")
		assert.ErrorContains(t, cl.Close(), "recorded while another goroutine recorded, closed, reset or executed it")
		e.clean(b)
	})

	t.Run("an atomic copy's own checks hold the list", func(t *testing.T) {
		cl := e.list(ddi.CommandListTypeDirect)
		require.True(t, cl.enter())
		cl.AtomicCopyBufferUINT(b, 3, b, 0, false) // misaligned: would fail the list if it checked unguarded
		cl.leave()
		assert.ErrorContains(t, cl.Err(), "recorded while another goroutine")
	})
}

// TestListGuardRaces: the misuses run for real, from two goroutines each —
// Reset (and re-recording) racing ExecuteCommandLists of the same list, and
// Close racing a recording thread. Under go test -race this is the proof
// that the guard leaves no data race; every call either succeeds or gets
// one of the errors the misuse may cause, and the GPU never faults.
func TestListGuardRaces(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	b := e.buffer("B", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	dispatch := func(cl *CommandList) { cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(b)}}}) }
	allowed := func(err error) bool {
		var m *Message
		if err == nil || errors.As(err, &m) && (m.ID == MsgInvalidWork || m.ID == MsgCommandListClosed) {
			return true
		}
		// ExecuteCommandLists of a list a Reset reopened, or whose
		// recording a submission's guard refused.
		return strings.Contains(err.Error(), "is still open") || strings.Contains(err.Error(), "failed recording")
	}

	t.Run("Reset racing ExecuteCommandLists", func(t *testing.T) {
		cl := e.list(ddi.CommandListTypeDirect)
		dispatch(cl)
		require.NoError(t, cl.Close())
		const n = 200
		var wg sync.WaitGroup
		errs := make(chan error, 4*n)
		wg.Add(2)
		go func() {
			defer wg.Done()
			for range n {
				errs <- e.direct.ExecuteCommandLists(cl)
			}
		}()
		go func() {
			defer wg.Done()
			for range n {
				errs <- cl.Reset()
				dispatch(cl)
				errs <- cl.Close()
			}
		}()
		wg.Wait()
		close(errs)
		for err := range errs {
			assert.True(t, allowed(err), "%v", err)
		}
		require.NoError(t, e.d.WaitIdle())
		assert.Empty(t, e.d.Machine().Faults())
	})

	t.Run("Destroy racing a recording thread and a submission", func(t *testing.T) {
		for range 20 {
			cl := e.list(ddi.CommandListTypeDirect)
			dispatch(cl)
			require.NoError(t, cl.Close())
			done := make(chan error, 1)
			go func() { done <- e.direct.ExecuteCommandLists(cl) }()
			cl.Destroy() // waits for a submission reading the list, then the list is gone
			err := <-done
			assert.True(t, err == nil || errContainsDestroyed(err), "%v", err)
			cl.Reset()
			requireMessage(t, cl.Err(), MsgDestroyedObject)
		}
		require.NoError(t, e.d.WaitIdle())
	})

	t.Run("Close racing a recording thread", func(t *testing.T) {
		for range 20 {
			cl := e.list(ddi.CommandListTypeDirect)
			done := make(chan struct{})
			go func() {
				defer close(done)
				for range 200 {
					dispatch(cl)
				}
			}()
			err := cl.Close()
			<-done
			assert.True(t, allowed(err), "%v", err)
			if err == nil {
				// Closed while the thread recorded: its later commands fail.
				assert.True(t, cl.commands == 200 || cl.Err() != nil, "commands lost without an error")
			}
		}
	})
}

func errContainsDestroyed(err error) bool {
	var m *Message
	return errors.As(err, &m) && m.ID == MsgDestroyedObject
}
