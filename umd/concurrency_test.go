package umd

import (
	"fmt"
	"github.com/ebref/ebref/cmdbuf"
	"strings"
	"sync"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// One device, many goroutines: each creates its own resources (committed
// and placed in a shared heap), names them, and records command lists
// that use them and resources another goroutine made, while the others do
// the same; then every list runs. Under -race this is the proof that
// recording needs no lock against creation and that creation is safe from
// any thread (as D3D12's free-threaded device requires).
func TestConcurrentRecordingAndCreation(t *testing.T) {
	const workers, lists = 4, 8
	e := newEnv(t, "discrete", Options{Debug: true})
	shared := e.texture("SHARED", 32, 32, rtFlags, ddi.LayoutCommon)
	rtDesc := Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 32, 32, 1, 1, rtFlags, ddi.LayoutUndefined)
	size, _, err := e.d.AllocationSize(rtDesc)
	require.NoError(t, err)
	heap, err := e.d.CreateHeap(resource.HeapDefault, size*workers*lists)
	require.NoError(t, err)

	recorded := make([][]*CommandList, workers)
	errs := make(chan error, workers*lists)
	var wg sync.WaitGroup
	// Meanwhile the shared texture is renamed, and lists that misuse it
	// put its name in their messages.
	stop := make(chan struct{})
	renamed := make(chan struct{})
	go func() {
		defer close(renamed)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
				assert.NoError(t, e.d.SetName(shared, fmt.Sprintf("SHARED%d", i)))
			}
		}
	}()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range lists {
				rt, err := e.d.CreateCommitted(Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 32, 32, 1, 1, rtFlags, ddi.LayoutRenderTarget), resource.HeapDefault)
				if err != nil {
					errs <- err
					return
				}
				placed, err := e.d.CreatePlaced(heap, uint64(w*lists+i)*size, rtDesc)
				if err != nil {
					errs <- err
					return
				}
				out, err := e.d.CreateCommitted(BufferDesc(32*32*4, ddi.ResourceFlagUnorderedAccess), resource.HeapDefault)
				if err != nil {
					errs <- err
					return
				}
				if err := e.d.SetName(rt, fmt.Sprintf("RT%d.%d", w, i)); err != nil {
					errs <- err
					return
				}
				cl, err := e.d.CreateCommandList(ddi.CommandListTypeDirect)
				if err != nil {
					errs <- err
					return
				}
				cl.Barrier([]ddi.Barrier{texRange(ddi.SyncNone, ddi.SyncRenderTarget, ddi.AccessNoAccess, ddi.AccessRenderTarget,
					ddi.LayoutUndefined, ddi.LayoutRenderTarget, placed, all(), ddi.TextureBarrierFlagDiscard)})
				cl.Draw(Draw{Pixel: Shader{ShaderResources: []View{WholeTexture(shared)}}, RenderTargets: []View{WholeTexture(rt), WholeTexture(placed)}})
				cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncComputeShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
					ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, rt)})
				cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeTexture(rt)}, UnorderedAccess: []View{WholeBuffer(out)}}})
				if err := cl.Close(); err != nil {
					errs <- err
					return
				}
				recorded[w] = append(recorded[w], cl)

				bad, err := e.d.CreateCommandList(ddi.CommandListTypeDirect)
				if err != nil {
					errs <- err
					return
				}
				bad.Barrier([]ddi.Barrier{tex(ddi.SyncNone, ddi.SyncPixelShading, ddi.AccessNoAccess, ddi.AccessShaderResource,
					ddi.LayoutCommon, ddi.LayoutShaderResource, shared)})
				bad.Draw(Draw{RenderTargets: []View{WholeTexture(shared)}})
				if bad.Err() == nil || !strings.Contains(bad.Err().Error(), "RenderTarget SHARED") {
					errs <- fmt.Errorf("rendering to a texture in SHADER_RESOURCE: %v", bad.Err())
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-renamed
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}

	// Two queues submit from two goroutines.
	compute, err := e.d.CreateQueue(ddi.CommandListTypeDirect)
	require.NoError(t, err)
	queues := []*Queue{e.direct, compute}
	var sub sync.WaitGroup
	for w := range workers {
		sub.Add(1)
		go func() {
			defer sub.Done()
			assert.NoError(t, queues[w%2].ExecuteCommandLists(recorded[w]...))
		}()
	}
	sub.Wait()
	require.NoError(t, e.d.WaitIdle())
	assert.Empty(t, e.d.Machine().Faults())
	assert.Empty(t, e.d.Machine().Hazards(), "each list touches only its own resources and reads the shared one")
	assert.Empty(t, e.d.Messages())
	assert.Len(t, e.d.resources, 1+3*workers*lists)
}

// TestConcurrentRecordingOfOneListFails: two goroutines recording one list
// at once either never overlapped (every command kept, the packets whole)
// or the list fails; it never closes as if nothing happened with commands
// lost.
func TestConcurrentRecordingOfOneListFails(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	b := e.buffer("B", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	// Deterministically: a call while another holds the list.
	d := e.list(ddi.CommandListTypeDirect)
	require.True(t, d.enter())
	d.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{BufferRange(b, 0, 4096)}}})
	d.Barrier([]ddi.Barrier{glob(ddi.SyncAll, ddi.SyncAll, ddi.AccessCommon, ddi.AccessCommon)})
	d.leave()
	assert.Zero(t, d.Buffer().Len(), "the second caller recorded nothing")
	assert.ErrorContains(t, d.Close(), "while another goroutine recorded, closed, reset or executed it")
	d.Reset()
	assert.NoError(t, d.Err(), "Reset starts afresh")

	cl := e.list(ddi.CommandListTypeDirect)
	const per = 1000
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range per {
				cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{BufferRange(b, 0, 4096)}}})
			}
		}()
	}
	wg.Wait()
	err := cl.Close()
	if err == nil {
		assert.Equal(t, 2*per, cl.commands, "no overlap: every command is there")
		for _, l := range cmdbuf.Listing(cl.Buffer(), nil) {
			require.Empty(t, l.Error)
		}
		return
	}
	assert.ErrorContains(t, err, "while another goroutine recorded, closed, reset or executed it")

}
