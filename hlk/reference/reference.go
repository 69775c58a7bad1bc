// Package reference is ebref's own driver (package umd) as the harness
// judges it: an hlk/driver.Driver that drives umd through its DDI function
// tables, as the D3D12 runtime does (runtime.go).
//
// This package imports ddi, hlk/driver, hwmodel, resource, umd and
// umd/translator, and nothing else of ebref.
package reference

import (
	"fmt"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/driver"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/ebref/ebref/umd"
	"github.com/ebref/ebref/umd/translator"
)

// Driver is ebref's own driver, package umd, driven as the D3D12 runtime
// drives a driver (runtime.go).
var Driver driver.Driver = refDriver{}

// WithTranslator is ebref's driver with every Barrier call translated by
// t instead (umd.Options.Translator, docs/translators.md): ebref validates,
// tracks, records the work and judges; t's packets are what is judged.
// The faults apply to t's replies.
func WithTranslator(t translator.Opener) driver.Driver { return refDriver{xl: t} }

type refDriver struct{ xl translator.Opener }

// IsReference says the driver is the reference, whose cost record bounds
// a run (hlk.Config.Costs).
func (d refDriver) IsReference() bool { return d.xl == nil }

// Translates says a translator translates its Barrier calls.
func (d refDriver) Translates() bool { return d.xl != nil }

// Jobs is how many cases a run should run at once (hlk.Config.Jobs's
// default), 0 for one per CPU: with a translator in other processes, as
// many as it has copies (translator.JobsPerCPU a CPU by default), so a
// case waiting for a reply leaves its CPU to another.
func (d refDriver) Jobs() int {
	if p, ok := d.xl.(*translator.Process); ok {
		return p.Jobs()
	}
	return 0
}

func (d refDriver) Name() string {
	if d.xl != nil {
		return "ebref umd, translator " + d.xl.Name()
	}
	return "ebref umd"
}

func (d refDriver) Faults() []string {
	if d.xl != nil {
		return umd.TranslatorFaultNames()
	}
	return umd.FaultNames()
}

func (rd refDriver) Open(p *hwmodel.Profile, o driver.DeviceOptions) (driver.Device, error) {
	opts := umd.Options{Debug: o.Debug, Context: o.Context, Translator: rd.xl}
	if o.Fault != "" {
		f, err := umd.FaultByName(o.Fault)
		if err != nil {
			return nil, err
		}
		opts.Faults = f
	}
	d, err := umd.Open(p, opts)
	if err != nil {
		return nil, err
	}
	rt := newDDIRuntime(d)
	if err := rt.requireEnhancedBarriers(); err != nil {
		return nil, err
	}
	return refDevice{d, rt}, nil
}

// refDevice adapts *umd.Device: what the DDI function tables have goes
// through them (runtime.go), the rest through the Go API; its queues and
// fences are umd's concrete types.
type refDevice struct {
	*umd.Device
	rt *ddiRuntime
}

func (d refDevice) CreateHeap(kind resource.HeapKind, size uint64) (ddi.HHeap, error) {
	return d.rt.createHeap(kind, size)
}

func (d refDevice) CreateCommitted(desc ddi.CreateResource0088, kind resource.HeapKind) (ddi.HResource, error) {
	return d.rt.createCommitted(desc, kind)
}

func (d refDevice) CreatePlaced(heap ddi.HHeap, offset uint64, desc ddi.CreateResource0088, alignment uint64) (ddi.HResource, error) {
	return d.rt.createPlaced(heap, offset, desc, alignment)
}

func (d refDevice) DestroyResource(h ddi.HResource) error { return d.rt.destroyResource(h) }
func (d refDevice) DestroyHeap(h ddi.HHeap) error         { return d.rt.destroyHeap(h) }

func (d refDevice) Describe(h ddi.HResource) (*resource.Resource, hwmodel.Region, bool) {
	r, ok := d.Resource(h)
	if !ok {
		return nil, hwmodel.Region{}, false
	}
	return r.Desc, r.Region(), true
}

func (d refDevice) CreateQueue(t ddi.CommandListType) (driver.Queue, error) {
	q, err := d.Device.CreateQueue(t)
	if err != nil {
		return nil, err
	}
	return refQueue{q}, nil
}

func (d refDevice) CreateFence() driver.Fence { return d.Device.CreateFence() }

func (d refDevice) CreateCommandList(t ddi.CommandListType, flags ddi.CommandListFlags) (driver.CommandList, error) {
	return d.rt.createCommandList(t, flags)
}

type refQueue struct{ *umd.Queue }

func (q refQueue) ExecuteCommandLists(lists ...driver.CommandList) error {
	cls := make([]*umd.CommandList, len(lists))
	for i, l := range lists {
		cl, ok := umdList(l)
		if !ok {
			return fmt.Errorf("hlk: list %d was not recorded by the reference driver", i)
		}
		cls[i] = cl
	}
	return q.Queue.ExecuteCommandLists(cls...)
}

func (q refQueue) Signal(f driver.Fence, v uint64) error {
	fe, _ := f.(*umd.Fence)
	return q.Queue.Signal(fe, v)
}
func (q refQueue) Wait(f driver.Fence, v uint64) error {
	fe, _ := f.(*umd.Fence)
	return q.Queue.Wait(fe, v)
}
