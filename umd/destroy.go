package umd

import (
	"errors"
	"fmt"
	"slices"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
)

// Lifetime. The runtime destroys a heap or resource through
// pfnDestroyHeapAndResource when its last reference goes, and a command
// list through pfnDestroyCommandList (d3d12umddi.h). The rules ebref
// checks (errata E-DESTROY):
//
//   - a resource may not be destroyed while a submission that uses it has
//     not completed (the debug layer's OBJECT_DELETED_WHILE_STILL_IN_USE):
//     only a WaitIdle after the last ExecuteCommandLists that used it
//     makes it free. Work in flight that does not use it does not matter:
//     the resource is destroyed at once, and if its memory must be
//     unmapped while the GPU is busy, that waits for the next WaitIdle
//     (as a driver defers freeing memory to a fence);
//   - a heap may not be destroyed while resources are placed in it, nor a
//     committed resource's heap apart from its resource;
//   - a destroyed resource, heap or command list may not be used again:
//     barriers and work that name it fail naming it, and a list recorded
//     before the destruction fails at ExecuteCommandLists.
//
// What is destroyed gives its memory back: a committed resource's heap and
// a destroyed heap are unmapped from the GPU, a surface is forgotten.

func destroyError(id MessageID, command, field, value, format string, args ...any) error {
	return &Message{Severity: SeverityError, Category: CategoryExecution, ID: id, Command: command, Call: -1, Barrier: -1,
		Field: field, Value: value, Rule: fmt.Sprintf(format, args...)}
}

// badHandle reports a handle that names no live resource through report:
// it never did (EBREF_INVALID_HANDLE), or it named one that was destroyed
// (EBREF_DESTROYED_OBJECT, naming it).
func (cl *CommandList) badHandle(h ddi.HResource, field string, report func(id MessageID, value, rule string) bool) bool {
	d := cl.d
	d.rmu.RLock()
	name, gone := d.gone[uint64(h)]
	d.rmu.RUnlock()
	if h == 0 {
		return report(MsgInvalidHandle, "NULL", "no resource has this handle")
	}
	if gone {
		return report(MsgDestroyedObject, name, "the resource was destroyed (DestroyHeapAndResource) and may not be used")
	}
	return report(MsgInvalidHandle, fmt.Sprintf("0x%x", uint64(h)), "no resource has this handle")
}

// DestroyResource destroys a resource (the resource half of
// pfnDestroyHeapAndResource). A committed resource's heap goes with it.
//
//go:noinline
func (d *Device) DestroyResource(h ddi.HResource) error {
	const cmd = "DestroyHeapAndResource"
	d.mu.Lock()
	defer d.mu.Unlock()
	d.rmu.Lock()
	defer d.rmu.Unlock()
	r := d.resources[h]
	if r == nil {
		return destroyError(MsgInvalidHandle, cmd, "hResource", fmt.Sprintf("0x%x", uint64(h)), "%s", d.unknownLocked(uint64(h)))
	}
	if r.lastUse > d.completed {
		return destroyError(MsgDeletedWhileInUse, cmd, "hResource", r.Name(),
			"a submission that uses it has not completed: wait for the GPU (WaitIdle) before destroying it")
	}
	if r.Committed {
		if err := d.free(r.Heap); err != nil {
			return destroyError(MsgDeletedWhileInUse, cmd, "hResource", r.Name(), "%v", err)
		}
		delete(d.heaps, r.Heap.Handle)
		d.gone[uint64(r.Heap.Handle)] = fmt.Sprintf("heap 0x%x (of %s)", uint64(r.Heap.Handle), r.Name())
	}
	r.Heap.occ.Remove(uint64(h))
	if r.Surface != 0 {
		d.m.RemoveSurface(r.Surface)
		d.freeSurfaces = append(d.freeSurfaces, r.Surface)
	}
	r.destroyed.Store(true)
	delete(d.resources, h)
	d.indexRemove(r)
	d.gone[uint64(h)] = r.Name()
	return nil
}

// unknownLocked is unknownHandle with d.rmu held.
func (d *Device) unknownLocked(h uint64) string {
	if name, ok := d.gone[h]; ok {
		return name + " was already destroyed"
	}
	return "no resource or heap has this handle"
}

// DestroyHeap destroys a heap (the heap half of
// pfnDestroyHeapAndResource): its memory is unmapped. Resources placed in
// it must be destroyed first; a committed resource's heap goes with its
// resource.
//
//go:noinline
func (d *Device) DestroyHeap(h ddi.HHeap) error {
	const cmd = "DestroyHeapAndResource"
	d.mu.Lock()
	defer d.mu.Unlock()
	d.rmu.Lock()
	defer d.rmu.Unlock()
	hp := d.heaps[h]
	if hp == nil {
		return destroyError(MsgInvalidHandle, cmd, "hHeap", fmt.Sprintf("0x%x", uint64(h)), "%s", d.unknownLocked(uint64(h)))
	}
	if ids := hp.occ.Aliasing(resource.Span{Offset: 0, Size: hp.Desc.Size}, 0); len(ids) > 0 {
		names := make([]string, len(ids))
		for i, id := range ids {
			names[i] = d.resources[ddi.HResource(id)].Name()
			if d.resources[ddi.HResource(id)].Committed {
				return destroyError(MsgInvalidHandle, cmd, "hHeap", fmt.Sprintf("0x%x", uint64(h)),
					"the heap is %s's, a committed resource: destroy the resource, and its heap goes with it", names[i])
			}
		}
		slices.Sort(names)
		return destroyError(MsgDeletedWhileInUse, cmd, "hHeap", fmt.Sprintf("0x%x", uint64(h)),
			"resources are still placed in it (%v): destroy them first", names)
	}
	if err := d.free(hp); err != nil {
		return destroyError(MsgDeletedWhileInUse, cmd, "hHeap", fmt.Sprintf("0x%x", uint64(h)), "%v", err)
	}
	delete(d.heaps, h)
	d.gone[uint64(h)] = fmt.Sprintf("heap 0x%x", uint64(h))
	return nil
}

// free unmaps a destroyed heap's memory (a committed resource's, or a
// heap with nothing placed in it), with d.mu held. No work in flight uses
// it — the caller checked the resource's last use, and a heap's resources
// were each destroyed the same way — but the machine unmaps nothing while
// any engine has work (hwmodel.ErrBusy): then the mapping waits for the
// next WaitIdle, still counted against the GPU's capacity until then.
func (d *Device) free(hp *Heap) error {
	err := d.m.Free(hp.Addr)
	if errors.Is(err, hwmodel.ErrBusy) {
		d.deferred = append(d.deferred, hp)
		d.deferredBytes += hp.Desc.Size
		return nil
	}
	return err
}

// freeDeferred unmaps the mappings destroyed while the GPU was busy, with
// d.mu held and the machine idle.
func (d *Device) freeDeferred() error {
	for len(d.deferred) > 0 {
		hp := d.deferred[0]
		if err := d.m.Free(hp.Addr); err != nil {
			return fmt.Errorf("umd: unmapping the memory of destroyed heap 0x%x: %w", uint64(hp.Handle), err)
		}
		d.deferred, d.deferredBytes = d.deferred[1:], d.deferredBytes-hp.Desc.Size
	}
	d.deferred = nil
	return nil
}
