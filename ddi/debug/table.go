package debug

// Info is what the documentation says of a message: its severity, when
// ebref emits it and the rule it enforces, with its spec citation.
type Info struct {
	Severity Severity
	When     string // the call and the condition
	Rule     string // the rule, cited by key and section (../shared/spec)
}

// Real reports whether the real D3D12 debug layer has the message: its ID is
// a D3D12_MESSAGE_ID of d3d12sdklayers.h (DirectX-Headers), not one of
// ebref's own (100000 and up, named EBREF_*).
func (id MessageID) Real() bool { return id < 100000 }

// Info is the message's documentation (the zero Info for an ID ebref does
// not emit).
func (id MessageID) Info() Info { return messageInfo[id] }

const (
	sevE = SeverityError
	sevW = SeverityWarning
)

// messageInfo documents every message of messageNames; docs/messages.md's
// table is generated from it.
var messageInfo = map[MessageID]Info{
	MsgUnusedCrossExecuteSplitBarrier:    {sevW, "ExecuteCommandLists: split halves cross the call on a buffer or simultaneous-access texture, where they do nothing, or on a texture with the COMMON layout", `000 "Split Barriers", "Barrier API Call Validation"`},
	MsgIncompatibleBarrierValues:         {sevE, "Barrier: members that contradict each other (SPLIT with another bit, DISCARD without UNDEFINED, NO_ACCESS with a sync, flags a type does not define)", `000 "Barrier API Call Validation"`},
	MsgIncompatibleBarrierAccess:         {sevE, "Barrier: an access the queue type, the layout, the resource's flags or its heap do not allow", `000 "Layout Access Compatibility", "Upload Heap Resources"`},
	MsgIncompatibleBarrierSync:           {sevE, "Barrier: a sync the queue type does not support, or that does not cover its access", `000 "Access Bits Barrier Sync Compatibility", "Command Queue Sync Compatibility"`},
	MsgIncompatibleBarrierLayout:         {sevE, "Barrier: a layout the resource cannot have, or a LayoutBefore that is not the layout the list left", `000 "Layout Transitions"`},
	MsgIncompatibleBarrierType:           {sevE, "Barrier: a texture barrier on a buffer or a buffer barrier on a texture", `000 "Barrier Types"`},
	MsgOutOfBoundsBarrierSubresource:     {sevE, "Barrier: a subresource range past the resource's", `000 "D3D12_BARRIER_SUBRESOURCE_RANGE"`},
	MsgIncompatibleBarrierDimension:      {sevE, "Barrier: a ranged barrier on a texture", `000 "D3D12DDI_RANGED_BARRIER_0094"`},
	MsgBufferBarrierSubregionOutOfBounds: {sevE, "Barrier: a ranged barrier's byte range outside its buffer", `000 "D3D12DDI_RANGED_BARRIER_0094"`},
	MsgUnsupportedBarrierLayout:          {sevE, "Barrier: a layout the queue type may not use", `000 "Command Queue Layout Compatibility"`},
	MsgCreateResourceAndHeapInvalid:      {sevE, "CreateHeapAndResource: a description, placement or initial layout it refuses", `000 "Initial Resource State", 001`},
	MsgInvalidAlignmentSmallResource:     {sevE, "CreateHeapAndResource: a texture placed at an offset only a small-resource alignment allows (4 KiB; 64 KiB multisampled) that is not a small resource", `DirectX-Specs "Tight Placed Resource Alignment" ("Small resource"), errata E-SMALL-PLACEMENT`},
	MsgBarrierInteropInvalidLayout:       {sevE, "ExecuteCommandLists: an enhanced and a legacy barrier name a subresource the other left outside COMMON", `000 "Interop with legacy ResourceBarrier"`},
	MsgCopyBufferRegionInvalidDst:        {sevE, "CopyBufferRegion: the destination is not a buffer or the range is outside it", "D3D12 API (CopyBufferRegion)"},
	MsgCopyBufferRegionInvalidSrc:        {sevE, "CopyBufferRegion: the source is not a buffer or the range is outside it", "D3D12 API (CopyBufferRegion)"},
	MsgAtomicCopyDstRangeOutOfBounds:     {sevE, "AtomicCopyBufferUINT/UINT64: the destination range is outside its buffer", "D3D12 API (AtomicCopyBufferUINT)"},
	MsgAtomicCopySrcRangeOutOfBounds:     {sevE, "AtomicCopyBufferUINT/UINT64: the source range is outside its buffer", "D3D12 API (AtomicCopyBufferUINT)"},
	MsgAtomicCopyInvalidOffsetAlignment:  {sevE, "AtomicCopyBufferUINT/UINT64: an offset not aligned to the copy's size", "D3D12 API (AtomicCopyBufferUINT)"},
	MsgCopyInvalidLayout:                 {sevE, "a copy of a texture the list left in a layout that does not allow the copy (not after the runtime's translation: #942 then)", `000 "Layout Access Compatibility"`},
	MsgSetPredicationInvalid:             {sevE, "SetPredication: an offset that is not a multiple of 8, or an operation that is neither EQUAL_ZERO nor NOT_EQUAL_ZERO", "D3D12 API (SetPredication)"},
	MsgCreateQueryHeapInvalid:            {sevE, "CreateQueryHeap: a type ebref does not implement (only OCCLUSION, TIMESTAMP), or a count of 0 or over 1 Mi", "D3D12 API (D3D12_QUERY_HEAP_DESC)"},
	MsgBeginEndQueryInvalid:              {sevE, "BeginQuery, EndQuery: a heap of nothing or of another type, an index past the heap, an occlusion query on a compute list, a begun timestamp, a query begun twice or ended unbegun", "D3D12 API (BeginQuery, EndQuery)"},
	MsgCloseOpenQuery:                    {sevE, "Close: a query the list began and did not end", "D3D12 API (BeginQuery)"},
	MsgResolveQueryDataInvalid:           {sevE, "ResolveQueryData: a heap of nothing or of another type, queries past the heap, a destination offset not a multiple of 8, or a destination that is no buffer or too small for 8 bytes a query", "D3D12 API (ResolveQueryData)"},
	MsgResolveQueryInvalidState:          {sevE, "ResolveQueryData: a query no EndQuery recorded so far has ended (its result is undefined)", "D3D12 API (ResolveQueryData)"},
	MsgDeletedWhileInUse:                 {sevE, "DestroyHeapAndResource: a resource or heap a submitted list still uses", `000 "Resource Aliasing"`},
	MsgZeroBarriers:                      {sevW, "Barrier: a call with no barriers", `000 "Barrier API Call Validation"`},
	MsgIncompatibleTextureLayout:         {sevE, "a command's access of a texture in a layout that does not allow it: at recording where the list set the layout, at ExecuteCommandLists where it assumed it (not after the runtime's translation: #942 then)", `000 "Layout Access Compatibility", "Barrier-Free Access"`},
	MsgBarrierInBundle:                   {sevE, "Barrier in a bundle", `000 "Barrier API Call Validation"`},
	MsgAccessBeforeCommon:                {sevW, "Barrier: an application's barrier with AccessBefore COMMON (not the runtime's translation of a legacy one)", `000 "Access Transitions"`},
	MsgInvalidHandle:                     {sevE, "any call: a NULL handle or one of nothing", `000 "Barrier Types"`},
	MsgSplitMismatch:                     {sevE, "Barrier or work: split halves that do not pair, or a subresource used between them", `000 "Split Barriers"`},
	MsgSequentialBarrierSync:             {sevE, "Barrier: a SyncBefore that does not contain the previous barrier's SyncAfter", `000 "Sequential Barriers"`},
	MsgSyncNoneAccessed:                  {sevE, "Barrier or work: an access after SyncAfter NONE, or SyncBefore NONE after an access", `000 "D3D12_BARRIER_SYNC_NONE"`},
	MsgSelfCopyIntersects:                {sevE, "a copy within one subresource whose regions intersect", `000 "Self Resource Copy"`},
	MsgInvalidWork:                       {sevE, "a work command's arguments (ranges, alignment, concurrent recording)", "the command's D3D12 API"},
	MsgCommandListClosed:                 {sevE, "recording into a closed command list", "D3D12 API (Close, Reset)"},
	MsgLayoutMismatch:                    {sevE, "ExecuteCommandLists: a list's first LayoutBefore is not the layout the subresource is in", `000 "Layout Validation"`},
	MsgIncompatibleAccessWork:            {sevE, "work: an access the queue type, or the resource's flags or heap, do not allow", `000 "Command Queue Access Compatibility", "Upload Heap Resources"`},
	MsgDestroyedObject:                   {sevE, "any call or ExecuteCommandLists: a destroyed resource, heap or list is used", "D3D12 API (object lifetime)"},
	MsgSubresourceZeroCount:              {sevW, "Barrier: NumArraySlices or NumPlanes 0, read as 1", `000 "D3D12_BARRIER_SUBRESOURCE_RANGE", errata`},
	MsgOutOfMemory:                       {sevE, "CreateHeapAndResource or a batch: the GPU's or the host's memory budget is used up (E_OUTOFMEMORY)", "docs/hardware.md, \"Host memory\""},
	MsgInvalidType:                       {sevE, "ResourceBarrier: a barrier type that does not exist", "D3D12 API (ResourceBarrier)"},
	MsgInvalidSubresource:                {sevE, "ResourceBarrier: a subresource past the resource's", "D3D12 API (ResourceBarrier)"},
	MsgMatchingStates:                    {sevE, "ResourceBarrier: a transition whose StateBefore and StateAfter are the same", "D3D12 API (ResourceBarrier)"},
	MsgInvalidCombination:                {sevE, "ResourceBarrier: states that cannot be combined (a write with another state)", "D3D12 API (ResourceBarrier)"},
	MsgBeforeAfterMismatch:               {sevE, "ResourceBarrier or ExecuteCommandLists: a StateBefore that is not the subresource's state", "D3D12 API (ResourceBarrier)"},
	MsgInvalidResource:                   {sevE, "ResourceBarrier: a resource handle of nothing", "D3D12 API (ResourceBarrier)"},
	MsgInvalidFlags:                      {sevE, "ResourceBarrier: flags a barrier type does not take", "D3D12 API (ResourceBarrier)"},
	MsgInvalidSplitBarrier:               {sevE, "ResourceBarrier or work: a split half that does not pair, or a subresource used between the halves", "D3D12 API (ResourceBarrier, split barriers)"},
	MsgUnmatchedEnd:                      {sevE, "ResourceBarrier: END_ONLY without a BEGIN_ONLY before it in the list", "D3D12 API (ResourceBarrier, split barriers)"},
	MsgUnmatchedBegin:                    {sevE, "Close: a BEGIN_ONLY the list never ends", "D3D12 API (ResourceBarrier, split barriers)"},
	MsgIncompatibleState:                 {sevE, "work or ExecuteCommandLists: a legacy state that does not allow a command's access, once for each command (the driver adds nothing)", `000 "Resource State Promotion and Decay", D3D12 API (resource states)`},
	MsgMismatchingBeginEnd:               {sevE, "ResourceBarrier: an END_ONLY whose states differ from its BEGIN_ONLY's", "D3D12 API (ResourceBarrier, split barriers)"},
	MsgDuplicateTransition:               {sevW, "ResourceBarrier: a transition of a subresource an earlier transition of the same call named (the call still applies both, in order)", "D3D12 API (ResourceBarrier)"},
	MsgCreateStateIgnored:                {sevW, "CreateResource: a buffer given an initial state other than COMMON", `000 "Initial Resource State"`},
	MsgInteropInvalidState:               {sevE, "ExecuteCommandLists: an enhanced barrier names a subresource a legacy barrier left outside COMMON", `000 "Interop with legacy ResourceBarrier"`},
}
