// Package driver is what the harness (package hlk) and a driver it judges
// share: the interfaces a driver implements (Driver, Device, Queue,
// CommandList), the arguments of its work commands (View, Draw, Dispatch,
// Video, Box), the record of each Barrier call (BarrierRecord), and the
// debug layer's messages (package ddi/debug). hlk imports no driver;
// ebref's own is package hlk/reference, which adapts package umd.
//
// This package imports cmdbuf, ddi, ddi/debug, hwmodel and resource, and
// nothing else of ebref.
package driver

import (
	"context"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/ddi/debug"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
)

// A Driver is what the suites run against: a user-mode driver that records
// onto ebref's simulated GPU, which judges it. The reference driver is
// package hlk/reference's; another implements these interfaces with this
// package's types.
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
	// CreatePlaced places a resource at offset in heap; alignment is the
	// Alignment the application's description asks for (0, or 4096 for a
	// small texture), which the runtime checks the offset against.
	CreatePlaced(heap ddi.HHeap, offset uint64, desc ddi.CreateResource0088, alignment uint64) (ddi.HResource, error)
	// DestroyResource and DestroyHeap are pfnDestroyHeapAndResource's two
	// halves; a refusal is a *debug.Message.
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
	// CreateQueryHeap creates a query heap (D3D12_QUERY_HEAP_DESC);
	// QueryHeapRange says where its results lie, 8 bytes a query.
	CreateQueryHeap(t ddi.QueryHeapType, count uint32) (ddi.HQueryHeap, error)
	QueryHeapRange(h ddi.HQueryHeap) (addr, size uint64, ok bool)
	// Messages are the debug layer's execute-time findings so far.
	Messages() []debug.Message
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
	Draw(d Draw)
	Dispatch(d Dispatch)
	DispatchRays(d DispatchRays)
	BuildRaytracingAccelerationStructure(dest View, inputs []View, source *View, scratch View)
	CopyRaytracingAccelerationStructure(dest, source View)
	EmitRaytracingAccelerationStructurePostbuildInfo(dest, source View)
	CopyBufferRegion(dst ddi.HResource, dstOffset uint64, src ddi.HResource, srcOffset, size uint64)
	CopyResource(dst, src ddi.HResource)
	CopyTextureRegion(dst ddi.HResource, dstSub, x, y, z uint32, src ddi.HResource, srcSub uint32, box *Box)
	CopyTextureToBuffer(dst ddi.HResource, offset uint64, src ddi.HResource, srcSub uint32)
	CopyBufferToTexture(dst ddi.HResource, dstSub uint32, src ddi.HResource, offset uint64)
	ResolveSubresource(dst ddi.HResource, dstSub uint32, src ddi.HResource, srcSub uint32)
	ClearRenderTargetView(v View, value uint32)
	ClearDepthStencilView(v View, value uint32)
	ClearUnorderedAccessView(v View, value uint32)
	DiscardResource(v View)
	// SetPredication starts predication on the 8 bytes at offset in
	// buffer, or with buffer 0 (NULL) ends it.
	SetPredication(buffer ddi.HResource, offset uint64, op ddi.PredicationOp)
	AtomicCopyBufferUINT(dst ddi.HResource, dstOffset uint64, src ddi.HResource, srcOffset uint64, wide bool)
	// BeginQuery, EndQuery and ResolveQueryData are the D3D12 commands:
	// ResolveQueryData writes 8 bytes a query into dst from offset.
	BeginQuery(h ddi.HQueryHeap, t ddi.QueryType, index uint32)
	EndQuery(h ddi.HQueryHeap, t ddi.QueryType, index uint32)
	ResolveQueryData(h ddi.HQueryHeap, t ddi.QueryType, start, count uint32, dst ddi.HResource, offset uint64)
	DecodeFrame(v Video)
	ProcessFrames(v Video)
	EncodeFrame(v Video)
	Close() error
	// Reset is pfnResetCommandList: the list records anew.
	Reset() error
	// Destroy is pfnDestroyCommandList.
	Destroy()
	// Err is the error that stopped recording (a *debug.Message), if any.
	Err() error
	Warnings() []debug.Message
	// Buffer is the packets recorded, Records the barrier calls' records.
	Buffer() *cmdbuf.Buffer
	Records() []BarrierRecord
	// LastBarrierCall is the ordinal of the last valid Barrier call, 0 if
	// none, without waiting for its translation: a driver may translate
	// a list's calls together when its packets are needed (Buffer,
	// Records, Close), and then knows a failure only there.
	LastBarrierCall() int
}

// View names what a command touches in a resource: a byte range of a
// buffer, or a set of subresources of a texture.
type View struct {
	Resource ddi.HResource
	// Buffers: the bytes from Offset; Size 0 means to the end.
	Offset, Size uint64
	// Textures: the subresources (as in a barrier; see WholeTexture and
	// Subresource).
	Subresources ddi.SubresourceRange
}

// WholeBuffer views every byte of a buffer.
func WholeBuffer(h ddi.HResource) View { return View{Resource: h} }

// BufferRange views size bytes of a buffer from off.
func BufferRange(h ddi.HResource, off, size uint64) View {
	return View{Resource: h, Offset: off, Size: size}
}

// WholeTexture views every subresource of a texture.
func WholeTexture(h ddi.HResource) View {
	return View{Resource: h, Subresources: ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources}}
}

// Subresource views one subresource of a texture.
func Subresource(h ddi.HResource, index uint32) View {
	return View{Resource: h, Subresources: ddi.SubresourceRange{IndexOrFirstMipLevel: index}}
}

// Shader is what one shader stage binds.
type Shader struct {
	ConstantBuffers []View
	ShaderResources []View
	UnorderedAccess []View // read and written
}

// Draw is a draw call's bindings.
type Draw struct {
	Arguments     *View // indirect arguments (ExecuteIndirect), read by the CP
	IndexBuffer   *View
	VertexBuffers []View
	Vertex        Shader
	StreamOutput  []View
	Pixel         Shader
	ShadingRate   *View // shading-rate image
	DepthStencil  *View
	DepthWrite    bool
	RenderTargets []View // read (blending) and written
}

// Dispatch is a dispatch's bindings.
type Dispatch struct {
	Arguments *View // indirect arguments, read by the CP
	Shader
}

// DispatchRays is a raytracing dispatch's bindings.
type DispatchRays struct {
	AccelerationStructures []View
	Shader
}

// [Front, Back), in elements (blocks of block-compressed formats).
type Box struct{ Left, Top, Front, Right, Bottom, Back uint32 }

// Video is a video operation's inputs and outputs.
type Video struct {
	Inputs, References []View
	Outputs            []View
}

// BarrierRecord is what one Barrier call produced: the call (its ordinal
// among the list's commands, from 1, as its MARKER "Barrier #n" and its
// messages number it), its waits (stages
// drained and held), cache operations (caches flushed and invalidated) and
// surface work (SurfaceOps), how many dwords of packets, and where they
// are in the list's buffer.
type BarrierRecord struct {
	Call, Barriers    int
	Waits             int
	Drain, Hold       cmdbuf.StageMask
	CacheOps          int
	Flush, Invalidate cmdbuf.CacheMask
	FirstOp, NumOps   int
	Dwords            int
	// Start and End are the dwords [Start, End) the call added to the
	// list's buffer, counted as cmdbuf.Line.Offset counts them (chunks
	// concatenated): its MARKER, then its packets. Where they ran into a
	// new chunk, the CHAIN to it is among them (at Start if the MARKER
	// did not fit); packets never straddle chunks.
	Start, End int
}

// SurfaceOp is one DECOMPRESS or METADATA_INIT a Barrier call emitted.
type SurfaceOp struct {
	Resource     ddi.HResource
	Surface      uint16
	Work         string // DECOMPRESS, METADATA_INIT clear, METADATA_INIT plain, METADATA_INIT discard
	Offset, Size uint64
	Async        bool // in the background, for a split barrier
}

// BufferDesc describes a buffer (its layout is always UNDEFINED).
func BufferDesc(size uint64, flags ddi.ResourceFlags) ddi.CreateResource0088 {
	return ddi.CreateResource0088{ResourceType: ddi.ResourceTypeBuffer, Width: size, Height: 1, DepthOrArraySize: 1,
		MipLevels: 1, SampleDesc: ddi.SampleDesc{Count: 1}, Layout: ddi.TextureLayoutRowMajor, Flags: flags,
		InitialBarrierLayout: ddi.LayoutUndefined}
}

// Texture2DDesc describes a 2D texture (arraySize slices, mips levels; 0
// mips is the full chain).
func Texture2DDesc(format ddi.Format, width, height uint32, arraySize, mips uint16, flags ddi.ResourceFlags,
	initial ddi.BarrierLayout) ddi.CreateResource0088 {
	return ddi.CreateResource0088{ResourceType: ddi.ResourceTypeTexture2D, Width: uint64(width), Height: height,
		DepthOrArraySize: arraySize, MipLevels: mips, Format: format, SampleDesc: ddi.SampleDesc{Count: 1},
		Flags: flags, InitialBarrierLayout: initial}
}
