// Package debug is the D3D12 debug layer's messages as ebref reports them:
// one Message type, with the IDs of both the driver's validation (package
// umd) and the runtime's legacy ResourceBarrier layer (ddi/legacy), so a
// harness and any driver share it.
//
// This package imports ddi and nothing else of ebref.
package debug

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ebref/ebref/ddi"
)

// Severity is a message's severity, as the D3D12 debug layer grades them.
type Severity uint8

// The severities ebref uses.
const (
	SeverityError Severity = iota
	SeverityWarning
)

func (s Severity) String() string {
	if s == SeverityWarning {
		return "WARNING"
	}
	return "ERROR"
}

// Category is a message's category (D3D12_MESSAGE_CATEGORY).
type Category uint8

// The categories ebref uses. CategoryNone prints none, as the legacy
// layer's messages do.
const (
	CategoryStateCreation Category = iota
	CategoryStateSetting
	CategoryExecution
	CategoryResourceManipulation
	CategoryNone
)

func (c Category) String() string {
	return [...]string{"STATE_CREATION", "STATE_SETTING", "EXECUTION", "RESOURCE_MANIPULATION", ""}[min(c, CategoryNone)]
}

// MessageID identifies a kind of message. Where the D3D12 debug layer has
// one for the same check, ebref uses its number and name
// (D3D12_MESSAGE_ID in d3d12sdklayers.h); checks it has none for get
// numbers from 100000 up and names starting EBREF_.
type MessageID uint32

// The messages.
const (
	MsgUnusedCrossExecuteSplitBarrier    MessageID = 1329
	MsgIncompatibleBarrierValues         MessageID = 1331
	MsgIncompatibleBarrierAccess         MessageID = 1332
	MsgIncompatibleBarrierSync           MessageID = 1333
	MsgIncompatibleBarrierLayout         MessageID = 1334
	MsgIncompatibleBarrierType           MessageID = 1335
	MsgOutOfBoundsBarrierSubresource     MessageID = 1336
	MsgIncompatibleBarrierDimension      MessageID = 1337
	MsgBufferBarrierSubregionOutOfBounds MessageID = 1340
	MsgUnsupportedBarrierLayout          MessageID = 1341
	MsgCreateResourceAndHeapInvalid      MessageID = 1342
	MsgBarrierInteropInvalidLayout       MessageID = 1350
	MsgInvalidAlignmentSmallResource     MessageID = 1380 // CREATERESOURCE_INVALIDALIGNMENT_SMALLRESOURCE
	MsgCopyBufferRegionInvalidDst        MessageID = 1140
	MsgCopyBufferRegionInvalidSrc        MessageID = 1141
	MsgAtomicCopyDstRangeOutOfBounds     MessageID = 1029
	MsgAtomicCopySrcRangeOutOfBounds     MessageID = 1032
	MsgAtomicCopyInvalidOffsetAlignment  MessageID = 1033
	MsgCopyInvalidLayout                 MessageID = 1067
	MsgSetPredicationInvalid             MessageID = 734  // SET_PREDICATION_INVALID_PARAMETERS
	MsgCreateQueryHeapInvalid            MessageID = 729  // CREATEQUERY_HEAP_INVALID_PARAMETERS
	MsgBeginEndQueryInvalid              MessageID = 731  // BEGIN_END_QUERY_INVALID_PARAMETERS
	MsgCloseOpenQuery                    MessageID = 732  // CLOSE_COMMAND_LIST_OPEN_QUERY
	MsgResolveQueryDataInvalid           MessageID = 733  // RESOLVE_QUERY_DATA_INVALID_PARAMETERS
	MsgResolveQueryInvalidState          MessageID = 1319 // RESOLVE_QUERY_INVALID_QUERY_STATE
	MsgDeletedWhileInUse                 MessageID = 921  // OBJECT_DELETED_WHILE_STILL_IN_USE
	MsgZeroBarriers                      MessageID = 954  // RESOURCE_BARRIER_ZERO_BARRIERS
	// MsgIncompatibleTextureLayout is a command's access of a texture in
	// a layout that does not allow it (000 "Layout Access Compatibility",
	// "Barrier-Free Access"), which the real layer's GPU-based validation
	// reports for descriptors (GPU_BASED_VALIDATION_INCOMPATIBLE_TEXTURE_LAYOUT).
	// A texture whose layout the runtime's translation of a legacy barrier
	// set is the legacy layer's to judge instead (#942), so one mistake
	// gives one message.
	MsgIncompatibleTextureLayout MessageID = 1358

	// ebref's own: the real debug layer has no D3D12_MESSAGE_ID for these
	// checks (d3d12sdklayers.h), so they are numbered from 100000 and named
	// EBREF_*. 100001 was EBREF_ZERO_BARRIER_COUNT, now the layer's #954.
	MsgBarrierInBundle        MessageID = 100000 // not the real layer's: a Barrier call in a bundle
	MsgAccessBeforeCommon     MessageID = 100002 // not the real layer's: a warning on AccessBefore COMMON
	MsgInvalidHandle          MessageID = 100003 // not the real layer's: a handle of nothing
	MsgSplitMismatch          MessageID = 100004 // not the real layer's: split halves that do not pair
	MsgSequentialBarrierSync  MessageID = 100005 // not the real layer's: SyncBefore against the previous SyncAfter
	MsgSyncNoneAccessed       MessageID = 100006 // not the real layer's: an access after SyncAfter NONE
	MsgSelfCopyIntersects     MessageID = 100007 // not the real layer's: a self-copy whose regions intersect
	MsgInvalidWork            MessageID = 100008 // not the real layer's: a work command's arguments
	MsgCommandListClosed      MessageID = 100009 // not the real layer's: recording into a closed list
	MsgLayoutMismatch         MessageID = 100010 // not the real layer's: a LayoutBefore that is not the layout at execution
	MsgIncompatibleAccessWork MessageID = 100011 // not the real layer's: an access the queue type or the resource's flags and heap do not allow
	MsgDestroyedObject        MessageID = 100012 // not the real layer's: a destroyed resource, heap or list is used
	MsgSubresourceZeroCount   MessageID = 100013 // not the real layer's: NumArraySlices or NumPlanes 0, read as 1
	MsgOutOfMemory            MessageID = 100014 // not the real layer's: the GPU's memory is used up (E_OUTOFMEMORY)
)

// The messages of legacy barrier validation.
const (
	MsgInvalidType         MessageID = 519  // RESOURCE_BARRIER_INVALID_TYPE
	MsgInvalidSubresource  MessageID = 521  // RESOURCE_BARRIER_INVALID_SUBRESOURCE
	MsgMatchingStates      MessageID = 525  // RESOURCE_BARRIER_MATCHING_STATES
	MsgInvalidCombination  MessageID = 526  // RESOURCE_BARRIER_INVALID_COMBINATION
	MsgBeforeAfterMismatch MessageID = 527  // RESOURCE_BARRIER_BEFORE_AFTER_MISMATCH
	MsgInvalidResource     MessageID = 528  // RESOURCE_BARRIER_INVALID_RESOURCE
	MsgInvalidFlags        MessageID = 530  // RESOURCE_BARRIER_INVALID_FLAGS
	MsgInvalidSplitBarrier MessageID = 533  // RESOURCE_BARRIER_INVALID_SPLIT_BARRIER
	MsgUnmatchedEnd        MessageID = 534  // RESOURCE_BARRIER_UNMATCHED_END
	MsgUnmatchedBegin      MessageID = 535  // RESOURCE_BARRIER_UNMATCHED_BEGIN
	MsgIncompatibleState   MessageID = 942  // GPU_BASED_VALIDATION_INCOMPATIBLE_RESOURCE_STATE
	MsgMismatchingBeginEnd MessageID = 957  // RESOURCE_BARRIER_MISMATCHING_BEGIN_END
	MsgDuplicateTransition MessageID = 1008 // RESOURCE_BARRIER_DUPLICATE_SUBRESOURCE_TRANSITIONS
	MsgCreateStateIgnored  MessageID = 1328 // CREATERESOURCE_STATE_IGNORED
	MsgInteropInvalidState MessageID = 1351 // BARRIER_INTEROP_INVALID_STATE
)

var messageNames = map[MessageID]string{
	MsgUnusedCrossExecuteSplitBarrier:    "UNUSED_CROSS_EXECUTE_SPLIT_BARRIER",
	MsgIncompatibleBarrierValues:         "INCOMPATIBLE_BARRIER_VALUES",
	MsgIncompatibleBarrierAccess:         "INCOMPATIBLE_BARRIER_ACCESS",
	MsgIncompatibleBarrierSync:           "INCOMPATIBLE_BARRIER_SYNC",
	MsgIncompatibleBarrierLayout:         "INCOMPATIBLE_BARRIER_LAYOUT",
	MsgIncompatibleBarrierType:           "INCOMPATIBLE_BARRIER_TYPE",
	MsgOutOfBoundsBarrierSubresource:     "OUT_OF_BOUNDS_BARRIER_SUBRESOURCE_RANGE",
	MsgIncompatibleBarrierDimension:      "INCOMPATIBLE_BARRIER_RESOURCE_DIMENSION",
	MsgBufferBarrierSubregionOutOfBounds: "BUFFER_BARRIER_SUBREGION_OUT_OF_BOUNDS",
	MsgUnsupportedBarrierLayout:          "UNSUPPORTED_BARRIER_LAYOUT",
	MsgCreateResourceAndHeapInvalid:      "CREATERESOURCEANDHEAP_INVALID_PARAMETERS",
	MsgBarrierInteropInvalidLayout:       "BARRIER_INTEROP_INVALID_LAYOUT",
	MsgInvalidAlignmentSmallResource:     "CREATERESOURCE_INVALIDALIGNMENT_SMALLRESOURCE",
	MsgCopyBufferRegionInvalidDst:        "COPYBUFFERREGION_INVALID_DST_RESOURCE",
	MsgCopyBufferRegionInvalidSrc:        "COPYBUFFERREGION_INVALID_SRC_RESOURCE",
	MsgAtomicCopyDstRangeOutOfBounds:     "ATOMICCOPYBUFFER_DST_RANGE_OUT_OF_BOUNDS",
	MsgAtomicCopySrcRangeOutOfBounds:     "ATOMICCOPYBUFFER_SRC_RANGE_OUT_OF_BOUNDS",
	MsgAtomicCopyInvalidOffsetAlignment:  "ATOMICCOPYBUFFER_INVALID_OFFSET_ALIGNMENT",
	MsgCopyInvalidLayout:                 "COPY_INVALIDLAYOUT",
	MsgSetPredicationInvalid:             "SET_PREDICATION_INVALID_PARAMETERS",
	MsgCreateQueryHeapInvalid:            "CREATEQUERY_HEAP_INVALID_PARAMETERS",
	MsgBeginEndQueryInvalid:              "BEGIN_END_QUERY_INVALID_PARAMETERS",
	MsgCloseOpenQuery:                    "CLOSE_COMMAND_LIST_OPEN_QUERY",
	MsgResolveQueryDataInvalid:           "RESOLVE_QUERY_DATA_INVALID_PARAMETERS",
	MsgResolveQueryInvalidState:          "RESOLVE_QUERY_INVALID_QUERY_STATE",
	MsgDeletedWhileInUse:                 "OBJECT_DELETED_WHILE_STILL_IN_USE",
	MsgZeroBarriers:                      "RESOURCE_BARRIER_ZERO_BARRIERS",
	MsgIncompatibleTextureLayout:         "GPU_BASED_VALIDATION_INCOMPATIBLE_TEXTURE_LAYOUT",
	MsgBarrierInBundle:                   "EBREF_BARRIER_IN_BUNDLE",
	MsgAccessBeforeCommon:                "EBREF_ACCESS_BEFORE_COMMON",
	MsgInvalidHandle:                     "EBREF_INVALID_HANDLE",
	MsgSplitMismatch:                     "EBREF_SPLIT_BARRIER_MISMATCH",
	MsgSequentialBarrierSync:             "EBREF_SEQUENTIAL_BARRIER_SYNC",
	MsgSyncNoneAccessed:                  "EBREF_SYNC_NONE_ACCESSED",
	MsgSelfCopyIntersects:                "EBREF_SELF_COPY_INTERSECTS",
	MsgInvalidWork:                       "EBREF_INVALID_WORK",
	MsgCommandListClosed:                 "EBREF_COMMAND_LIST_CLOSED",
	MsgLayoutMismatch:                    "EBREF_LAYOUT_MISMATCH",
	MsgIncompatibleAccessWork:            "EBREF_INCOMPATIBLE_ACCESS",
	MsgDestroyedObject:                   "EBREF_DESTROYED_OBJECT",
	MsgSubresourceZeroCount:              "EBREF_SUBRESOURCE_ZERO_COUNT",
	MsgOutOfMemory:                       "EBREF_OUT_OF_MEMORY",
	// The legacy layer's (ddi/legacy).
	MsgInvalidType:         "RESOURCE_BARRIER_INVALID_TYPE",
	MsgInvalidSubresource:  "RESOURCE_BARRIER_INVALID_SUBRESOURCE",
	MsgMatchingStates:      "RESOURCE_BARRIER_MATCHING_STATES",
	MsgInvalidCombination:  "RESOURCE_BARRIER_INVALID_COMBINATION",
	MsgBeforeAfterMismatch: "RESOURCE_BARRIER_BEFORE_AFTER_MISMATCH",
	MsgInvalidResource:     "RESOURCE_BARRIER_INVALID_RESOURCE",
	MsgInvalidFlags:        "RESOURCE_BARRIER_INVALID_FLAGS",
	MsgInvalidSplitBarrier: "RESOURCE_BARRIER_INVALID_SPLIT_BARRIER",
	MsgUnmatchedEnd:        "RESOURCE_BARRIER_UNMATCHED_END",
	MsgUnmatchedBegin:      "RESOURCE_BARRIER_UNMATCHED_BEGIN",
	MsgIncompatibleState:   "GPU_BASED_VALIDATION_INCOMPATIBLE_RESOURCE_STATE",
	MsgMismatchingBeginEnd: "RESOURCE_BARRIER_MISMATCHING_BEGIN_END",
	MsgDuplicateTransition: "RESOURCE_BARRIER_DUPLICATE_SUBRESOURCE_TRANSITIONS",
	MsgCreateStateIgnored:  "CREATERESOURCE_STATE_IGNORED",
	MsgInteropInvalidState: "BARRIER_INTEROP_INVALID_STATE",
}

// Name is the message's D3D12_MESSAGE_ID name without its prefix.
func (id MessageID) Name() string {
	if n, ok := messageNames[id]; ok {
		return n
	}
	return fmt.Sprintf("MESSAGE_%d", uint32(id))
}

// MessageIDs lists every message ebref emits, the driver's and the legacy
// layer's.
func MessageIDs() []MessageID { return slices.Sorted(maps.Keys(messageNames)) }

// AllSubresources in Subresource says the finding is the whole
// resource's (D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES).
const AllSubresources = 0xffffffff

// Message is one validation finding. Call and Barrier locate a barrier:
// Call is the Barrier call's ordinal among all the commands of its command
// list, from 1, the number its MARKER carries ("Barrier #3"), and Barrier
// the barrier's index in the call's array (or a ResourceBarrier call's),
// from 0; both are -1 for findings about other commands, which Command
// names instead. Resource and Subresource name the legacy layer's
// subresource (0: none; AllSubresources: the whole resource).
type Message struct {
	Severity    Severity
	Category    Category
	ID          MessageID
	Command     string // "Barrier", "CopyBufferRegion", "CreateHeapAndResource", ...
	Call        int
	Barrier     int
	Resource    ddi.HResource
	Subresource uint32
	Field       string // the member at fault, e.g. "LayoutAfter"
	Value       string // its value, printed as the enums print
	Rule        string // what the rule says, with its spec citation
}

// Error prints the message in the debug layer's style:
//
//	D3D12 ERROR: Barrier #2, barrier 0: LayoutAfter RENDER_TARGET: ... (000 "...") [ STATE_SETTING ERROR #1334: INCOMPATIBLE_BARRIER_LAYOUT ]
//	D3D12 ERROR: ResourceBarrier, barrier 0, resource 0x2 subresource 1: StateBefore: ... [ ERROR #527: RESOURCE_BARRIER_BEFORE_AFTER_MISMATCH ]
func (m *Message) Error() string {
	var s strings.Builder
	fmt.Fprintf(&s, "D3D12 %s: %s", m.Severity, m.Command)
	if m.Call >= 0 {
		fmt.Fprintf(&s, " #%d", m.Call)
	}
	if m.Barrier >= 0 {
		fmt.Fprintf(&s, ", barrier %d", m.Barrier)
	}
	if m.Resource != 0 {
		fmt.Fprintf(&s, ", resource 0x%x", uint64(m.Resource))
		if m.Subresource != AllSubresources {
			fmt.Fprintf(&s, " subresource %d", m.Subresource)
		}
	}
	s.WriteString(": ")
	if m.Field != "" {
		s.WriteString(m.Field)
		if m.Value != "" {
			s.WriteString(" " + m.Value)
		}
		s.WriteString(": ")
	}
	s.WriteString(m.Rule)
	s.WriteString(" [ ")
	if m.Category != CategoryNone {
		s.WriteString(m.Category.String() + " ")
	}
	fmt.Fprintf(&s, "%s #%d: %s ]", m.Severity, uint32(m.ID), m.ID.Name())
	return s.String()
}

func (m *Message) String() string { return m.Error() }
