package umd

import (
	"math/bits"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/internal/ortable"
)

// This file is where D3D12 meets the hardware: which pipeline stages a sync
// scope covers, which hardware client performs an access, which engine runs
// a command-list type. Every translation rule reads these tables.

// syncStage is one sync scope and the hardware stages its work runs in.
type syncStage struct {
	sync   ddi.BarrierSync
	stages cmdbuf.StageMask
	cite   string
}

// syncStages maps each leaf sync scope (umbrellas are expanded first,
// ddi.ExpandSync) to stages. ALL also covers BLIT, where the asynchronous
// halves of split barriers run, and the CP.
var syncStages = []syncStage{
	{ddi.SyncAll, cmdbuf.AllStages, `000 "D3D12_BARRIER_SYNC_ALL"`},
	{ddi.SyncIndexInput, stageMask(cmdbuf.StageInput), `000 "D3D12_BARRIER_SYNC_INDEX_INPUT"`},
	{ddi.SyncVertexShading, stageMask(cmdbuf.StageVertex), `000 "D3D12_BARRIER_SYNC_VERTEX_SHADING"`},
	{ddi.SyncPixelShading, stageMask(cmdbuf.StagePixel), `000 "D3D12_BARRIER_SYNC_PIXEL_SHADING"`},
	{ddi.SyncDepthStencil, stageMask(cmdbuf.StageDepth), `000 "D3D12_BARRIER_SYNC_DEPTH_STENCIL"`},
	{ddi.SyncRenderTarget, stageMask(cmdbuf.StageColor), `000 "D3D12_BARRIER_SYNC_RENDER_TARGET"`},
	{ddi.SyncComputeShading, stageMask(cmdbuf.StageCompute), `000 "D3D12_BARRIER_SYNC_COMPUTE_SHADING"`},
	{ddi.SyncRaytracing, stageMask(cmdbuf.StageRaytrace), `000 "D3D12_BARRIER_SYNC_RAYTRACING"`},
	{ddi.SyncCopy, stageMask(cmdbuf.StageCopy), `000 "D3D12_BARRIER_SYNC_COPY"`},
	{ddi.SyncResolve, stageMask(cmdbuf.StageResolve), `000 "D3D12_BARRIER_SYNC_RESOLVE"`},
	// Indirect arguments and predicates are fetched by the command processor.
	{ddi.SyncExecuteIndirect, stageMask(cmdbuf.StageCP), `000 "D3D12_BARRIER_SYNC_EXECUTE_INDIRECT"`},
	{ddi.SyncEmitRaytracingAccelerationStructurePostbuildInfo, stageMask(cmdbuf.StageASBuild), `000 "D3D12_BARRIER_SYNC"`},
	{ddi.SyncClearUnorderedAccessView, stageMask(cmdbuf.StageClear), `000 "D3D12_BARRIER_SYNC_CLEAR_UNORDERED_ACCESS_VIEW"`},
	{ddi.SyncVideoDecode, stageMask(cmdbuf.StageVideo), `000 "D3D12_BARRIER_SYNC_VIDEO_DECODE"`},
	{ddi.SyncVideoProcess, stageMask(cmdbuf.StageVideo), `000 "D3D12_BARRIER_SYNC_VIDEO_PROCESS"`},
	{ddi.SyncVideoEncode, stageMask(cmdbuf.StageVideo), `000 "D3D12_BARRIER_SYNC_VIDEO_ENCODE"`},
	{ddi.SyncBuildRaytracingAccelerationStructure, stageMask(cmdbuf.StageASBuild), `000 "D3D12_BARRIER_SYNC_BUILD_RAYTRACING_ACCELERATION_STRUCTURE"`},
	{ddi.SyncCopyRaytracingAccelerationStructure, stageMask(cmdbuf.StageASBuild), `000 "D3D12_BARRIER_SYNC_COPY_RAYTRACING_ACCELERATION_STRUCTURE"`},
}

func stageMask(ss ...cmdbuf.Stage) cmdbuf.StageMask {
	var m cmdbuf.StageMask
	for _, s := range ss {
		m |= s.Mask()
	}
	return m
}

// stagesOfBit is syncStages indexed by bit position.
var stagesOfBit = func() (t [32]cmdbuf.StageMask) {
	for _, r := range syncStages {
		for b := r.sync; b != 0; b &= b - 1 {
			t[bitIndex(uint32(b))] |= r.stages
		}
	}
	return t
}()

// Stages is the hardware stages a sync mask covers, umbrellas expanded
// (000 "Umbrella Synchronization Scopes"). SPLIT and NONE cover none.
func Stages(s ddi.BarrierSync) cmdbuf.StageMask { return cmdbuf.StageMask(stagesOfSync.Of(uint32(s))) }

// stagesOfSync is Stages as a table (every barrier asks it twice).
var stagesOfSync = ortable.New(func(s uint32) uint32 {
	var m cmdbuf.StageMask
	for b := uint32(ddi.ExpandSync(ddi.BarrierSync(s)) | ddi.BarrierSync(s)); b != 0; b &= b - 1 {
		m |= stagesOfBit[bitIndex(b)]
	}
	return uint32(m)
})

// accessClient is one access bit and the hardware clients that perform it.
type accessClient struct {
	access  ddi.BarrierAccess
	clients clientMask
}

// clientMask is a set of cmdbuf.Client.
type clientMask uint32

func clients(cs ...cmdbuf.Client) clientMask {
	var m clientMask
	for _, c := range cs {
		m |= 1 << c
	}
	return m
}

func (m clientMask) has(c cmdbuf.Client) bool { return m&(1<<c) != 0 }

// accessClients maps each access bit to the clients ebref's driver performs
// it with: the path its work packets use (work.go), so the caches a barrier
// flushes and invalidates are those the accesses went through.
var accessClients = []accessClient{
	{ddi.AccessVertexBuffer, clients(cmdbuf.ClientVertexFetch)},
	{ddi.AccessConstantBuffer, clients(cmdbuf.ClientConstFetch)},
	{ddi.AccessIndexBuffer, clients(cmdbuf.ClientVertexFetch)},
	{ddi.AccessRenderTarget, clients(cmdbuf.ClientColor)},
	// Unordered access, read or write, goes through the store path.
	{ddi.AccessUnorderedAccess, clients(cmdbuf.ClientShaderStore)},
	{ddi.AccessDepthStencilWrite, clients(cmdbuf.ClientDepth)},
	{ddi.AccessDepthStencilRead, clients(cmdbuf.ClientDepth)},
	{ddi.AccessShaderResource, clients(cmdbuf.ClientShaderLoad)},
	{ddi.AccessStreamOutput, clients(cmdbuf.ClientStreamOut)},
	{ddi.AccessIndirectArgument, clients(cmdbuf.ClientCP)},
	{ddi.AccessCopyDest, clients(cmdbuf.ClientCopy)},
	{ddi.AccessCopySource, clients(cmdbuf.ClientCopy)},
	{ddi.AccessResolveDest, clients(cmdbuf.ClientColor)},
	{ddi.AccessResolveSource, clients(cmdbuf.ClientColor)},
	// Traversal reads structures; builds read sources and write results.
	{ddi.AccessRaytracingAccelerationStructureRead, clients(cmdbuf.ClientRTTraverse, cmdbuf.ClientASBuild)},
	{ddi.AccessRaytracingAccelerationStructureWrite, clients(cmdbuf.ClientASBuild)},
	{ddi.AccessShadingRateSource, clients(cmdbuf.ClientConstFetch)},
	{ddi.AccessVideoDecodeRead, clients(cmdbuf.ClientVideo)},
	{ddi.AccessVideoDecodeWrite, clients(cmdbuf.ClientVideo)},
	{ddi.AccessVideoProcessRead, clients(cmdbuf.ClientVideo)},
	{ddi.AccessVideoProcessWrite, clients(cmdbuf.ClientVideo)},
	{ddi.AccessVideoEncodeRead, clients(cmdbuf.ClientVideo)},
	{ddi.AccessVideoEncodeWrite, clients(cmdbuf.ClientVideo)},
}

// clientsOfBit is accessClients indexed by bit position.
var clientsOfBit = func() (t [32]clientMask) {
	for _, r := range accessClients {
		t[bitIndex(uint32(r.access))] = r.clients
	}
	return t
}()

// clientsOf is the set of clients performing the accesses a (NO_ACCESS
// and COMMON: none; callers expand COMMON first).
func clientsOf(a ddi.BarrierAccess) clientMask {
	v := rolesOfAccess.Of(uint32(a))
	return clientMask((v | v>>16) & 0xffff)
}

// clientRoles are the clients performing a's write accesses and those
// performing its other accesses.
func clientRoles(a ddi.BarrierAccess) (writes, others clientMask) {
	v := rolesOfAccess.Of(uint32(a))
	return clientMask(v & 0xffff), clientMask(v >> 16)
}

// rolesOfAccess is clientRoles as a table: the writers in the low half,
// the others in the high half (there are fewer than 16 clients).
var rolesOfAccess = ortable.New(func(a uint32) uint32 {
	clients := func(a uint32) (m uint32) {
		for b := a &^ uint32(ddi.AccessNoAccess); b != 0; b &= b - 1 {
			m |= uint32(clientsOfBit[bitIndex(b)])
		}
		return m
	}
	return clients(a&uint32(ddi.WriteAccesses)) | clients(a&^uint32(ddi.WriteAccesses))<<16
})

// queueEngines maps each command-list type to the engine its queues run on.
var queueEngines = map[ddi.CommandListType]hwmodel.EngineKind{
	ddi.CommandListTypeDirect:       hwmodel.EngineDirect,
	ddi.CommandListTypeCompute:      hwmodel.EngineCompute,
	ddi.CommandListTypeCopy:         hwmodel.EngineCopy,
	ddi.CommandListTypeVideoDecode:  hwmodel.EngineVideoDecode,
	ddi.CommandListTypeVideoProcess: hwmodel.EngineVideoProcess,
	ddi.CommandListTypeVideoEncode:  hwmodel.EngineVideoEncode,
}

// bitIndex is the position of the lowest set bit of a non-zero v.
func bitIndex(v uint32) int { return bits.TrailingZeros32(v) }

// Clients is the hardware clients ebref's work performs accesses a with,
// a mask over cmdbuf.Client (COMMON and NO_ACCESS: none): what a
// translator needs to know to find the caches an access went through
// (ebref_translator.h has it as a table).
func Clients(a ddi.BarrierAccess) uint32 { return uint32(clientsOf(a)) }
