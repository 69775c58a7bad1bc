package umd

import "github.com/ebref/ebref/ddi/debug"

// The debug layer's messages are package debug's, shared with the legacy
// layer and the harness: these names keep the driver's code and API as
// they were.
type (
	Severity  = debug.Severity
	Category  = debug.Category
	MessageID = debug.MessageID
	Message   = debug.Message
)

// The severities and categories.
const (
	SeverityError                = debug.SeverityError
	SeverityWarning              = debug.SeverityWarning
	CategoryStateCreation        = debug.CategoryStateCreation
	CategoryStateSetting         = debug.CategoryStateSetting
	CategoryExecution            = debug.CategoryExecution
	CategoryResourceManipulation = debug.CategoryResourceManipulation
)

// The messages the driver reports (debug has their names).
const (
	MsgUnusedCrossExecuteSplitBarrier    = debug.MsgUnusedCrossExecuteSplitBarrier
	MsgIncompatibleBarrierValues         = debug.MsgIncompatibleBarrierValues
	MsgIncompatibleBarrierAccess         = debug.MsgIncompatibleBarrierAccess
	MsgIncompatibleBarrierSync           = debug.MsgIncompatibleBarrierSync
	MsgIncompatibleBarrierLayout         = debug.MsgIncompatibleBarrierLayout
	MsgIncompatibleBarrierType           = debug.MsgIncompatibleBarrierType
	MsgOutOfBoundsBarrierSubresource     = debug.MsgOutOfBoundsBarrierSubresource
	MsgIncompatibleBarrierDimension      = debug.MsgIncompatibleBarrierDimension
	MsgBufferBarrierSubregionOutOfBounds = debug.MsgBufferBarrierSubregionOutOfBounds
	MsgUnsupportedBarrierLayout          = debug.MsgUnsupportedBarrierLayout
	MsgCreateResourceAndHeapInvalid      = debug.MsgCreateResourceAndHeapInvalid
	MsgSetPredicationInvalid             = debug.MsgSetPredicationInvalid
	MsgCreateQueryHeapInvalid            = debug.MsgCreateQueryHeapInvalid
	MsgBeginEndQueryInvalid              = debug.MsgBeginEndQueryInvalid
	MsgCloseOpenQuery                    = debug.MsgCloseOpenQuery
	MsgResolveQueryDataInvalid           = debug.MsgResolveQueryDataInvalid
	MsgResolveQueryInvalidState          = debug.MsgResolveQueryInvalidState
	MsgInvalidAlignmentSmallResource     = debug.MsgInvalidAlignmentSmallResource
	MsgBarrierInteropInvalidLayout       = debug.MsgBarrierInteropInvalidLayout
	MsgCopyBufferRegionInvalidDst        = debug.MsgCopyBufferRegionInvalidDst
	MsgCopyBufferRegionInvalidSrc        = debug.MsgCopyBufferRegionInvalidSrc
	MsgAtomicCopyDstRangeOutOfBounds     = debug.MsgAtomicCopyDstRangeOutOfBounds
	MsgAtomicCopySrcRangeOutOfBounds     = debug.MsgAtomicCopySrcRangeOutOfBounds
	MsgAtomicCopyInvalidOffsetAlignment  = debug.MsgAtomicCopyInvalidOffsetAlignment
	MsgCopyInvalidLayout                 = debug.MsgCopyInvalidLayout
	MsgDeletedWhileInUse                 = debug.MsgDeletedWhileInUse
	MsgIncompatibleTextureLayout         = debug.MsgIncompatibleTextureLayout
	MsgBarrierInBundle                   = debug.MsgBarrierInBundle
	MsgZeroBarriers                      = debug.MsgZeroBarriers
	MsgAccessBeforeCommon                = debug.MsgAccessBeforeCommon
	MsgInvalidHandle                     = debug.MsgInvalidHandle
	MsgSplitMismatch                     = debug.MsgSplitMismatch
	MsgSequentialBarrierSync             = debug.MsgSequentialBarrierSync
	MsgSyncNoneAccessed                  = debug.MsgSyncNoneAccessed
	MsgSelfCopyIntersects                = debug.MsgSelfCopyIntersects
	MsgInvalidWork                       = debug.MsgInvalidWork
	MsgCommandListClosed                 = debug.MsgCommandListClosed
	MsgLayoutMismatch                    = debug.MsgLayoutMismatch
	MsgIncompatibleAccessWork            = debug.MsgIncompatibleAccessWork
	MsgDestroyedObject                   = debug.MsgDestroyedObject
	MsgSubresourceZeroCount              = debug.MsgSubresourceZeroCount
	MsgOutOfMemory                       = debug.MsgOutOfMemory
)

// MessageIDs lists every message ebref emits (debug.MessageIDs).
func MessageIDs() []MessageID { return debug.MessageIDs() }
