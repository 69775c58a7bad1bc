package hlk

import (
	"context"
	"fmt"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/ebref/ebref/umd"
	"github.com/ebref/ebref/umd/translator"
)

// A Driver is what the suites run against: a user-mode driver that records
// onto ebref's simulated GPU, which judges it. The reference driver
// (package umd) is Reference; another implementation plugs in by
// implementing these interfaces (its argument types are umd's plain
// structures: View, Draw, Dispatch, Video, Box, Message, BarrierRecord).
type Driver interface {
	// Name identifies the driver in reports.
	Name() string
	// Faults lists the fault injections the driver offers, for --inject
	// and --mutation.
	Faults() []string
	// Open opens a device on a hardware profile.
	Open(p *hwmodel.Profile, o DeviceOptions) (Device, error)
}

// DeviceOptions are how a case opens its device.
type DeviceOptions struct {
	Debug bool   // the debug layer's ExecuteCommandLists checks
	Fault string // one of Driver.Faults, "" for none
	// Context cancels the case (its timeout): the device's WaitIdle must
	// stop soon after it is done.
	Context context.Context
}

// Device is an open device.
type Device interface {
	// Machine is the simulated GPU the device records for.
	Machine() *hwmodel.Machine
	CreateHeap(kind resource.HeapKind, size uint64) (ddi.HHeap, error)
	CreateCommitted(desc ddi.CreateResource0088, kind resource.HeapKind) (ddi.HResource, error)
	CreatePlaced(heap ddi.HHeap, offset uint64, desc ddi.CreateResource0088) (ddi.HResource, error)
	// DestroyResource and DestroyHeap are pfnDestroyHeapAndResource's two
	// halves; a refusal is a *umd.Message.
	DestroyResource(h ddi.HResource) error
	DestroyHeap(h ddi.HHeap) error
	SetName(h ddi.HResource, name string) error
	// Describe returns a resource's description and the memory region
	// the judge compares.
	Describe(h ddi.HResource) (*resource.Resource, hwmodel.Region, bool)
	WriteBuffer(h ddi.HResource, offset uint64, data []byte) error
	// Contents is a resource's bytes as a client that decodes
	// compression reads them, after WaitIdle.
	Contents(h ddi.HResource) ([]byte, error)
	CreateQueue(t ddi.CommandListType) (Queue, error)
	CreateFence() Fence
	// CreateCommandList creates a list; flags may ask for
	// ALLOW_EXTENDED_ASYNC.
	CreateCommandList(t ddi.CommandListType, flags ddi.CommandListFlags) (CommandList, error)
	// WaitIdle runs everything submitted to completion.
	WaitIdle() error
	// Messages are the debug layer's execute-time findings so far.
	Messages() []umd.Message
}

// Queue is a command queue.
type Queue interface {
	ExecuteCommandLists(lists ...CommandList) error
	Signal(f Fence, v uint64) error
	Wait(f Fence, v uint64) error
}

// Fence is a fence; only its Device's queues use it.
type Fence any

// CommandList records commands; its first error stops recording.
type CommandList interface {
	// Barrier is PFND3D12DDI_BARRIER_0094, Barrier0088
	// PFND3D12DDI_BARRIER_0088.
	Barrier(bs []ddi.Barrier)
	Barrier0088(bs []ddi.Barrier0088)
	Draw(d umd.Draw)
	Dispatch(d umd.Dispatch)
	DispatchRays(d umd.DispatchRays)
	BuildRaytracingAccelerationStructure(dest umd.View, inputs []umd.View, source *umd.View, scratch umd.View)
	CopyRaytracingAccelerationStructure(dest, source umd.View)
	EmitRaytracingAccelerationStructurePostbuildInfo(dest, source umd.View)
	CopyBufferRegion(dst ddi.HResource, dstOffset uint64, src ddi.HResource, srcOffset, size uint64)
	CopyResource(dst, src ddi.HResource)
	CopyTextureRegion(dst ddi.HResource, dstSub, x, y, z uint32, src ddi.HResource, srcSub uint32, box *umd.Box)
	CopyTextureToBuffer(dst ddi.HResource, offset uint64, src ddi.HResource, srcSub uint32)
	CopyBufferToTexture(dst ddi.HResource, dstSub uint32, src ddi.HResource, offset uint64)
	ResolveSubresource(dst ddi.HResource, dstSub uint32, src ddi.HResource, srcSub uint32)
	ClearRenderTargetView(v umd.View, value uint32)
	ClearDepthStencilView(v umd.View, value uint32)
	ClearUnorderedAccessView(v umd.View, value uint32)
	DiscardResource(v umd.View)
	SetPredication(buffer ddi.HResource, offset uint64)
	AtomicCopyBufferUINT(dst ddi.HResource, dstOffset uint64, src ddi.HResource, srcOffset uint64, wide bool)
	DecodeFrame(v umd.Video)
	ProcessFrames(v umd.Video)
	EncodeFrame(v umd.Video)
	Close() error
	// Reset is pfnResetCommandList: the list records anew.
	Reset() error
	// Destroy is pfnDestroyCommandList.
	Destroy()
	// Err is the error that stopped recording (a *umd.Message), if any.
	Err() error
	Warnings() []umd.Message
	// Buffer is the packets recorded, Records the barrier calls' records.
	Buffer() *cmdbuf.Buffer
	Records() []umd.BarrierRecord
}

// Reference is ebref's own driver, package umd.
var Reference Driver = refDriver{}

// WithTranslator is ebref's driver with every Barrier call translated by
// t instead (umd.Options.Translator, docs/translators.md): ebref validates,
// tracks, records the work and judges; t's packets are what is judged.
// The faults apply to t's replies.
func WithTranslator(t translator.Opener) Driver { return refDriver{xl: t} }

type refDriver struct{ xl translator.Opener }

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

func (rd refDriver) Open(p *hwmodel.Profile, o DeviceOptions) (Device, error) {
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

func (d refDevice) CreatePlaced(heap ddi.HHeap, offset uint64, desc ddi.CreateResource0088) (ddi.HResource, error) {
	return d.rt.createPlaced(heap, offset, desc)
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

func (d refDevice) CreateQueue(t ddi.CommandListType) (Queue, error) {
	q, err := d.Device.CreateQueue(t)
	if err != nil {
		return nil, err
	}
	return refQueue{q}, nil
}

func (d refDevice) CreateFence() Fence { return d.Device.CreateFence() }

func (d refDevice) CreateCommandList(t ddi.CommandListType, flags ddi.CommandListFlags) (CommandList, error) {
	return d.rt.createCommandList(t, flags)
}

type refQueue struct{ *umd.Queue }

func (q refQueue) ExecuteCommandLists(lists ...CommandList) error {
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

func (q refQueue) Signal(f Fence, v uint64) error {
	fe, _ := f.(*umd.Fence)
	return q.Queue.Signal(fe, v)
}
func (q refQueue) Wait(f Fence, v uint64) error { fe, _ := f.(*umd.Fence); return q.Queue.Wait(fe, v) }
