package scenario

import (
	"bytes"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/ddi/debug"
	"github.com/ebref/ebref/ddi/legacy"
	"github.com/ebref/ebref/hlk/driver"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
)

// Scenario is one case of a scenario file: one `scenario` section (or the
// whole file when it has none) with one set of parameter values.
type Scenario struct {
	File     string  // the file's path, as given
	Title    string  // the section's title ("" for a file without sections)
	Params   []Param // this case's parameter values, in declaration order
	Profiles []string
	Requires []string // features a profile must have, or the case is NotSupported
	Debug    bool     // the debug layer's ExecuteCommandLists checks
	Steps    []Step
	Expects  []Expect
}

// Param is one parameter's value in a case.
type Param struct{ Name, Value string }

// Name identifies the case: the file, the section title, the parameters.
func (s *Scenario) Name() string {
	n := s.File
	if s.Title != "" {
		n += ": " + s.Title
	}
	if len(s.Params) > 0 {
		n += " ["
		for i, p := range s.Params {
			if i > 0 {
				n += " "
			}
			n += p.Name + "=" + p.Value
		}
		n += "]"
	}
	return n
}

// Step is one top-level statement, run in order.
type Step interface{ At() Pos }

// At is where a statement starts.
func (p Pos) At() Pos { return p }

// HeapStep creates a heap.
type HeapStep struct {
	Pos
	Name string
	Kind resource.HeapKind
	Size uint64
}

// ResourceStep creates a buffer or texture, committed in a heap of Kind or
// placed in Heap at Offset.
type ResourceStep struct {
	Pos
	Name   string
	Desc   ddi.CreateResource0088
	Kind   resource.HeapKind
	Heap   string // placed in this heap ("": committed)
	Offset uint64
	// Align is the Alignment the description asks for (align N; 0: the
	// default), which the runtime checks Offset against.
	Align uint64
	// State: created through the legacy path in this initial state
	// (HasState), which gives the layout; HasLayout: a layout was written.
	State     ddi.ResourceStates
	HasState  bool
	HasLayout bool
}

// QueryHeapStep creates a query heap.
type QueryHeapStep struct {
	Pos
	Name  string
	Type  ddi.QueryHeapType
	Count uint32
}

// QueueStep creates a queue.
type QueueStep struct {
	Pos
	Name string
	Type ddi.CommandListType
}

// FenceStep creates a fence.
type FenceStep struct {
	Pos
	Name string
}

// ListStep records a command list: creates it, or with Reset resets one
// created earlier (pfnResetCommandList), records Cmds and closes it.
type ListStep struct {
	Pos
	Name  string
	Type  ddi.CommandListType  // not set with Reset: the list keeps its type
	Flags ddi.CommandListFlags // ALLOW_EXTENDED_ASYNC: asynchronous copies, discards and resolves
	Reset bool
	// Recording names this recording in reports: the list's name for the
	// first, NAME#2, NAME#3, ... for those after each reset ('#' starts a
	// comment, so no declared name has one).
	Recording string
	Cmds      []Cmd
}

// ExecuteStep submits lists to a queue.
type ExecuteStep struct {
	Pos
	Queue string
	Lists []string
}

// FenceOpStep signals (Wait false) or waits for a fence on a queue.
type FenceOpStep struct {
	Pos
	Wait  bool
	Queue string
	Fence string
	Value uint64
}

// WaitIdleStep is the CPU waiting for the GPU to finish everything
// submitted (WaitIdle).
type WaitIdleStep struct{ Pos }

// DestroyStep destroys a resource, heap or command list (Kind says which):
// pfnDestroyHeapAndResource or pfnDestroyCommandList.
type DestroyStep struct {
	Pos
	Name string
	Kind string // resource, heap or list
}

// WriteStep writes bytes into a CPU-visible buffer: Data, or with Fill,
// Data's one byte Fill times (kept so: a random program fills 32 KiB of
// upload memory, a thousand programs would hold 32 MB).
type WriteStep struct {
	Pos
	Resource string
	Offset   uint64
	Data     []byte
	Fill     uint64
}

// Size is how many bytes the step writes.
func (s *WriteStep) Size() uint64 {
	if s.Fill > 0 {
		return s.Fill
	}
	return uint64(len(s.Data))
}

// Bytes are the bytes the step writes.
func (s *WriteStep) Bytes() []byte {
	if s.Fill > 0 {
		return bytes.Repeat(s.Data, int(s.Fill))
	}
	return s.Data
}

// Cmd is one command recorded in a list: an operation name, its views by
// role, its numbers, its barriers.
type Cmd struct {
	Pos
	Op       string
	Views    map[string][]ViewRef // by role: "rt", "srv", "dst", ...
	Args     []uint64
	Flag     bool        // ds-write, a 64-bit atomic copy, a predication's operation given
	Op2      uint64      // a predication's operation (ddi.PredicationOp), a query's type (ddi.QueryType)
	Query    string      // a query command's heap
	Box      *driver.Box // copy-texture's source box
	Barriers []BarrierSpec
	DDI0088  bool // a barrier call through PFND3D12DDI_BARRIER_0088
	// Legacy are the barriers of a ResourceBarrier call (Op
	// "resource-barrier"), which the runtime's legacy layer translates.
	Legacy []LegacySpec
}

// LegacySpec is one legacy barrier as written; the run fills in the
// handles from the names ("" for NULL).
type LegacySpec struct {
	Pos
	Barrier            legacy.Barrier
	Res, Before, After string
}

// ViewRef names a resource and what of it: all of it, a byte range of a
// buffer (offset+size) or one subresource (@index).
type ViewRef struct {
	Pos
	Res      string // a resource name, "" with Raw for a raw handle
	Raw      uint64
	IsRaw    bool
	Offset   uint64
	Size     uint64
	HasRange bool
	Sub      uint32
	HasSub   bool
}

// BarrierSpec is one barrier as written: every member but the resource
// handle, which the run fills in from the name.
type BarrierSpec struct {
	Pos
	Barrier ddi.Barrier
	// Ranged0088 is a ranged barrier of a 0088 call (the Barrier's type
	// says RANGED); its resource and subresources are filled in at run time.
	Ranged0088 ddi.RangedBarrier0088
	Res        ViewRef // the resource ("" for a global barrier)
	HasRes     bool
	Sub        *SubSpec // the subresources when written (nil: all)
}

// Expect is one expectation, checked after the scenario ran.
type Expect struct {
	Pos
	Kind   string // reference, bytes, no-hazard, hazard, detected, error, warning, packets, cost, no-error
	Res    []ViewRef
	Bytes  []byte
	Hazard hwmodel.HazardKind
	ID     debug.MessageID
	List   string
	Field  string
	Op     string // packets: the opcode; cost: the metric
	Cmp    string
	N      uint64 // packets and cost: the bound; error and warning: the count
	// Counted: an error or warning line with `count N`, which claims every
	// matching message and wants exactly N.
	Counted bool
	// Text: an error or warning line's `text "..."`, which the message's
	// text must contain.
	Text string
}
