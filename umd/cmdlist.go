package umd

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"sync/atomic"
	"unsafe"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd/translator"
)

// CommandList is a command list being recorded: work and barriers become
// packets in a command buffer. The first error puts it in an error state:
// later commands are ignored and Close returns that error (as the D3D12
// runtime removes a command list that records an invalid barrier).
// Warnings are collected. A CommandList is used by one goroutine at a time
// (the list guard, below; errata E-LIST-GUARD).
type CommandList struct {
	d      *Device
	typ    ddi.CommandListType
	flags  ddi.CommandListFlags
	engine hwmodel.EngineKind
	caches *cacheTable // the engine's (Device.caches)
	// req is the request a Barrier call builds for the device's
	// translator (seam.go); commonAfter says the call has a global
	// barrier whose AccessAfter is COMMON (the request then carries the
	// aliased metadata). xerr is the translator's failure, which stops
	// recording.
	req           translator.Request
	commonAfter   bool
	lastResidents lastResidents
	// residentsCopy are the residents a translator other than the
	// device's own reference is given (seam.go).
	residentsCopy []translator.Resident
	// scratch is where the device's own reference translates the list's
	// calls (Reference.translate).
	scratch scratch
	xerr    error
	// lastCall is the ordinal of the last Barrier call translated or
	// queued (LastBarrierCall).
	lastCall int
	// pipe queues the list's calls for a translator that takes them
	// ahead of their replies. While calls are queued the list has a
	// staging, with the calls and the stage it records into: buf is the
	// stage, and the list's own buffer is real, until collect records the
	// stage into it. stagedPatches is the first patch recorded into the
	// stage (pipeline.go).
	pipe          translator.Pipeline
	stg           *staging
	real          *cmdbuf.Buffer
	stagedPatches int
	rules         *ddi.QueueRules // nil for bundles
	// translated: the Barrier call being recorded is the runtime's
	// translation of a legacy one (TranslatedBarrier).
	translated bool
	// layouts has a bit per layout slot a barrier on this list may name.
	layouts uint64
	buf     *cmdbuf.Buffer
	// held is the submission (Device.submitted) that last took buf itself
	// rather than a copy: until it completes, a Reset must not reuse buf.
	held   uint64
	closed bool
	// destroyed: Destroy was called; nothing may use the list again.
	destroyed bool
	// guard is the list's owner of the moment (enter, claim, share): 0
	// nobody, guardExclusive a recording call, Close, Reset or Destroy,
	// n > 0 that many ExecuteCommandLists reading the list. concurrent is
	// set when a recording call found it held.
	guard      atomic.Int32
	concurrent atomic.Bool
	err        *Message
	warns      []Message

	// commands counts the commands begun, Barrier calls included: the
	// current one's ordinal, which its MARKER and its messages carry.
	commands int
	// predicated says a SetPredication with a buffer is in force: the
	// predicable work recorded now is marked predicated.
	predicated bool
	// draws counts the draws recorded; openQueries are the queries begun
	// and not ended, each with draws at its BeginQuery (query.go).
	draws       int
	openQueries map[queryKey]int
	// label is the current command's MARKER text, "Barrier #3", labelLen
	// bytes (zeros after them): labelName, " #", and from numberAt the
	// count numberOf in decimal, stepped from the last one's (a carry
	// costs a digit), not formatted anew; labelWords are its bytes in the
	// dwords a MARKER carries them in, encoded again from the first byte
	// that changed, so a MARKER copies its text (appendMarker).
	label      [labelWords * 4]byte
	labelWords [labelWords]uint32
	labelLen   int
	// markerHeader is the MARKER's header for labelLen bytes of text, and
	// labelDwords their dwords, set with labelWords (encodeLabel).
	markerHeader uint32
	labelDwords  int
	numberAt     int // 0: no label yet
	numberOf     int
	labelName    string

	// Record-time tracking of the subresources the list touches (track.go).
	gen    uint32
	tracks map[ddi.HResource]*track
	// recent holds tracks entries found lately, at their handle modulo its
	// size: a barrier asks for its resource's entry three times (lookup,
	// the sequence check, planning), and a map lookup costs as much as all
	// of a barrier's field checks. Handles the device hands out are
	// consecutive, so a call's resources seldom share a place.
	recent [64]*track

	// patches are surface accesses whose compression depends on a layout
	// the list does not know; the queue sets them at submission.
	patches []patch
	// assumptions are texture accesses made before any barrier on their
	// subresource: the debug layer checks them at submission.
	assumptions []assumption

	records []BarrierRecord
	ops     []SurfaceOp // the records' surface work

	nextEvent uint32
	words     []uint32
	accs      []accessSpec
}

// patch locates the attribute dword of a surface access.
type patch struct {
	pos cmdbuf.Pos
	res *Resource
	sub uint32
}

// assumption is a texture access recorded before the list knew the layout.
type assumption struct {
	res     *Resource
	sub     uint32
	access  ddi.BarrierAccess
	command string
	ordinal int // the command's MARKER number ("Draw #3")
}

// CreateCommandList creates a command list of a type; it is open for
// recording.
func (d *Device) CreateCommandList(t ddi.CommandListType) (*CommandList, error) {
	return d.CreateCommandListFlags(t, 0)
}

// CreateCommandListFlags creates a command list with creation flags
// (ddi.CommandListFlagAllowExtendedAsync: its copies, discards and resolves
// are asynchronous).
//
//go:noinline
func (d *Device) CreateCommandListFlags(t ddi.CommandListType, flags ddi.CommandListFlags) (*CommandList, error) {
	if !t.Valid() {
		return nil, fmt.Errorf("umd: CreateCommandList: %v is not a command list type", t)
	}
	if flags&^ddi.CommandListFlagAllowExtendedAsync != 0 {
		return nil, fmt.Errorf("umd: CreateCommandList: flags %v: only ALLOW_EXTENDED_ASYNC is defined", flags)
	}
	cl := &CommandList{d: d, typ: t, flags: flags, buf: cmdbuf.NewBuffer(0), tracks: map[ddi.HResource]*track{}, gen: 1}
	// The device's own reference finds the residents of the list's
	// request when it first needs them (residents.index).
	cl.scratch.lazy.list, cl.scratch.lazy.req = cl, &cl.req
	if t != ddi.CommandListTypeBundle {
		cl.rules, _ = ddi.QueueRulesFor(t)
		cl.engine = queueEngines[t]
		for _, l := range cl.rules.Layouts {
			if slot, ok := layoutSlot(l); ok {
				cl.layouts |= 1 << slot
			}
		}
	}
	cl.caches = &d.caches[cl.engine]
	return cl, nil
}

// Type is the command list's type.
func (cl *CommandList) Type() ddi.CommandListType { return cl.typ }

// The list guard (errata E-LIST-GUARD). A command list is not
// free-threaded: one goroutine records, closes or resets it at a time, and
// none of that may overlap an ExecuteCommandLists that reads it
// (ID3D12GraphicsCommandList is not thread-safe; the runtime leaves that
// to the application). The guard turns such an overlap into an error for
// the call that comes second, never a data race:
//
//   - a recording call takes it alone (enter); one that finds it held
//     records nothing and marks the list failed (its packets and tracking
//     would interleave with another call's, or change under an
//     ExecuteCommandLists), which Err and Close report;
//   - Close and Reset take it alone too (claim), and one that finds it
//     held changes nothing and returns errBusy; Destroy, which returns
//     nothing, waits for it;
//   - ExecuteCommandLists takes it shared for every list it submits
//     (share), so lists may be submitted from several goroutines at once,
//     and fails, submitting nothing, if one is being recorded, closed or
//     reset.
//
// One compare-and-swap: no lock on the hot path.
const guardExclusive = -1

// enter claims the list alone for a recording call; false, and the list
// marked failed, if anyone holds it.
func (cl *CommandList) enter() bool {
	if !cl.guard.CompareAndSwap(0, guardExclusive) {
		cl.concurrent.Store(true)
		return false
	}
	return true
}

// claim claims the list alone for Close or Reset; false if anyone holds it.
func (cl *CommandList) claim() bool { return cl.guard.CompareAndSwap(0, guardExclusive) }

func (cl *CommandList) leave() { cl.guard.Store(0) }

// share claims the list for reading by ExecuteCommandLists; false if it
// is being recorded, closed or reset.
func (cl *CommandList) share() bool {
	for {
		n := cl.guard.Load()
		if n < 0 {
			return false
		}
		if cl.guard.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

func (cl *CommandList) unshare() { cl.guard.Add(-1) }

// errConcurrent is the list's error once a recording call found another
// goroutine using the list.
var errConcurrent = &Message{Severity: SeverityError, Category: CategoryStateSetting, ID: MsgInvalidWork, Command: "recording",
	Call: -1, Barrier: -1, Rule: "the command list was recorded while another goroutine recorded, closed, reset or executed it; " +
		"one goroutine uses a list at a time"}

// errBusy is Close's or Reset's error when another goroutine holds the
// list: command names the call refused.
func errBusy(command string) error {
	return &Message{Severity: SeverityError, Category: CategoryStateSetting, ID: MsgInvalidWork, Command: command, Call: -1, Barrier: -1,
		Rule: "another goroutine is recording, closing, resetting or executing the command list: " +
			"a list is used by one goroutine at a time, and not reset or closed while ExecuteCommandLists reads it"}
}

// Close ends recording; it returns the first error recorded, if any.
//
//go:noinline
func (cl *CommandList) Close() error {
	if !cl.claim() {
		return errBusy("Close")
	}
	defer cl.leave()
	if cl.concurrent.Load() && cl.err == nil {
		cl.err = errConcurrent
	}
	if cl.destroyed {
		cl.open("Close")
		return cl.err
	}
	if cl.closed {
		return &Message{Severity: SeverityError, Category: CategoryStateSetting, ID: MsgCommandListClosed,
			Command: "Close", Call: -1, Barrier: -1, Rule: "the command list is already closed"}
	}
	cl.collect()
	cl.closed = true
	if len(cl.openQueries) > 0 && cl.err == nil {
		first := ^uint32(0)
		for k := range cl.openQueries {
			first = min(first, k.i)
		}
		cl.err = &Message{Severity: SeverityError, Category: CategoryExecution, ID: MsgCloseOpenQuery, Command: "Close", Call: -1, Barrier: -1,
			Field: "Index", Value: fmt.Sprint(first), Rule: "a query the command list began (BeginQuery) is not ended (EndQuery)"}
	}
	if cl.xerr != nil {
		return cl.xerr
	}
	if cl.err != nil {
		return cl.err
	}
	return nil
}

// Destroy is pfnDestroyCommandList: the list is gone, and recording,
// closing, resetting or executing it again is an error. A list that a
// pending submission holds may be destroyed: the submission keeps its own
// reference to the recorded packets, as a driver's command allocator does.
//
//go:noinline
func (cl *CommandList) Destroy() {
	// It returns nothing, so it waits its turn instead of failing: every
	// holder of the guard lets go within its call.
	for !cl.claim() {
		runtime.Gosched()
	}
	defer cl.leave()
	cl.dropStage()
	cl.destroyed = true
	cl.tracks, cl.recent, cl.patches, cl.assumptions = nil, [64]*track{}, nil, nil
}

// Reset is pfnResetCommandList: it empties the list and opens it for
// recording again, keeping its memory (tracking tables; command buffer
// chunks no submission holds) for reuse. It returns the list's error: a
// destroyed list stays destroyed.
//
//go:noinline
func (cl *CommandList) Reset() error {
	if !cl.claim() {
		return errBusy("Reset")
	}
	defer cl.leave()
	if cl.destroyed {
		cl.open("Reset")
		return cl.err
	}
	cl.dropStage()
	// A list may be reset while a submission of it is pending (unlike its
	// allocator): that submission still reads the packets, so they stay
	// its own and the list records into a new buffer.
	cl.d.mu.Lock()
	pending := cl.held > cl.d.completed
	cl.d.mu.Unlock()
	if pending {
		cl.buf = cmdbuf.NewBuffer(0)
	} else {
		cl.buf.Reset()
	}
	cl.closed, cl.err, cl.xerr, cl.lastCall = false, nil, nil, 0
	cl.concurrent.Store(false)
	cl.warns = cl.warns[:0]
	cl.commands = 0
	cl.predicated = false
	cl.draws = 0
	clear(cl.openQueries)
	cl.gen++
	cl.patches = cl.patches[:0]
	cl.assumptions = cl.assumptions[:0]
	cl.records = cl.records[:0]
	cl.ops = cl.ops[:0]
	cl.nextEvent = 0
	return nil
}

// Err is the error that stopped recording, if any. A Barrier call whose
// translator takes requests ahead of their replies (pipeline.go) fails
// when its reply is read: when the list's packets are needed (Close,
// Records, Buffer, SurfaceOps), not before.
func (cl *CommandList) Err() error {
	if cl.xerr != nil {
		return cl.xerr
	}
	if cl.err == nil {
		if cl.concurrent.Load() {
			return errConcurrent
		}
		return nil
	}
	return cl.err
}

// Warnings are the warnings recorded so far.
func (cl *CommandList) Warnings() []Message { return cl.warns }

// Buffer is the command buffer recorded so far, for disassembly. Accesses
// whose compression waits for submission are shown as recorded (not
// through compression).
func (cl *CommandList) Buffer() *cmdbuf.Buffer {
	cl.collect()
	return cl.buf
}

// Records returns the barrier-operations record of every Barrier call.
func (cl *CommandList) Records() []BarrierRecord {
	cl.collect()
	return cl.records
}

// LastBarrierCall is the ordinal (the MARKER's number) of the list's last
// Barrier call that was valid and went to the translator, 0 if none: what
// a caller that must not wait for the translator's replies (Records does)
// reads after each call. The call has no record if its translation
// failed (Err, Close).
func (cl *CommandList) LastBarrierCall() int { return cl.lastCall }

// SurfaceOps returns the surface work of a record.
func (cl *CommandList) SurfaceOps(r BarrierRecord) []SurfaceOp {
	cl.collect()
	return cl.ops[r.FirstOp : r.FirstOp+r.NumOps]
}

// open reports whether commands may be recorded; a command on a closed
// list is itself an error.
func (cl *CommandList) open(command string) bool {
	if cl.destroyed {
		// A destroyed list records nothing; its error says why.
		cl.err = &Message{Severity: SeverityError, Category: CategoryStateSetting, ID: MsgDestroyedObject, Command: command,
			Call: -1, Barrier: -1, Rule: "the command list was destroyed (DestroyCommandList)"}
		return false
	}
	if cl.err != nil || cl.xerr != nil {
		return false
	}
	if cl.closed {
		cl.fail(Message{Category: CategoryStateSetting, ID: MsgCommandListClosed, Command: command, Call: -1, Barrier: -1,
			Rule: "the command list is closed: Reset it before recording"})
		return false
	}
	return true
}

// lookup finds a resource by handle, first among those the list has met
// (no lock), then in the device's table.
func (cl *CommandList) lookup(h ddi.HResource) *Resource {
	r, _ := cl.lookupEntry(h)
	return r
}

// lookupEntry is lookup, with the handle's tracks entry (entry; nil if it
// has none), which may be another resource's that had the handle before.
func (cl *CommandList) lookupEntry(h ddi.HResource) (*Resource, *track) {
	if t := cl.recent[uint64(h)%uint64(len(cl.recent))]; t != nil && t.res.Handle == h && !t.res.destroyed.Load() {
		return t.res, t // the entry it has and its resource, if it is still there
	}
	return cl.lookupOther(h)
}

// lookupOther is lookupEntry for a handle whose entry recent does not
// hold, or whose resource was destroyed.
func (cl *CommandList) lookupOther(h ddi.HResource) (*Resource, *track) {
	t := cl.entry(h)
	if t != nil && !t.res.destroyed.Load() {
		return t.res, t
	}
	return cl.d.resource(h), t
}

// fail records the first error.
func (cl *CommandList) fail(m Message) {
	if cl.err == nil {
		m.Severity = SeverityError
		cl.err = &m
	}
}

func (cl *CommandList) warn(m Message) {
	m.Severity = SeverityWarning
	cl.warns = append(cl.warns, m)
}

// marker emits a MARKER naming the current command, "Barrier #3", so
// hazards point at it, without allocating.
func (cl *CommandList) marker(command string) {
	cl.put(cl.appendMarker(cl.room(), command))
}

// labelSize holds a command's name (at most 48 bytes: they are the DDI's
// function names), " #" and a count (an int has at most 19 digits).
const labelSize = 48 + 2 + 20

// labelWords are the dwords of the longest label.
const labelWords = (labelSize + 3) / 4

// appendMarker appends the MARKER of the current command (cl.commands,
// counted when the command began) to words: cmdbuf.AppendMarker's packet,
// its text copied from labelWords.
func (cl *CommandList) appendMarker(words []uint32, command string) []uint32 {
	// The same name is mostly the same string constant: its bytes are
	// compared only when it is not (relabel).
	if i := uint(cl.labelLen - 1); unsafe.StringData(command) == unsafe.StringData(cl.labelName) &&
		len(command) == len(cl.labelName) && cl.commands == cl.numberOf+1 &&
		i >= uint(cl.numberAt) && i < uint(len(cl.label)) && cl.label[i] != '9' {
		// The next command of the same name, without a carry: the last
		// digit, and the byte of its dword, one more.
		cl.label[i]++
		cl.labelWords[i/4] += 1 << (8 * (i % 4))
		cl.numberOf++
	} else {
		cl.relabel(command)
	}
	nw := cl.labelDwords
	at := len(words)
	if cap(words)-at < 3+nw {
		words = slices.Grow(words, 3+nw)
	}
	words = words[:at+3+nw]
	m := words[at:]
	m[0], m[1], m[2] = cl.markerHeader, uint32(cl.commands), uint32(cl.labelLen)
	// Dword by dword, not copy: memmove's wider loads straddle the dword
	// just stepped, which stalls them until the store has gone.
	for j, w := range cl.labelWords[:nw] {
		m[3+j] = w
	}
	return words
}

// relabel makes the label command's, numbered cl.commands.
func (cl *CommandList) relabel(command string) {
	command = command[:min(len(command), labelSize-2-20)]
	if cl.numberAt == 0 || command != cl.labelName {
		// The name changes; the digits move behind it, to be stepped.
		var digits [20]byte
		k := copy(digits[:], cl.label[cl.numberAt:cl.labelLen])
		n := copy(cl.label[:], command)
		cl.label[n], cl.label[n+1] = ' ', '#'
		end := n + 2 + copy(cl.label[n+2:], digits[:k])
		clear(cl.label[end:max(end, cl.labelLen)])
		cl.numberAt, cl.labelLen, cl.labelName = n+2, end, command
		cl.encodeLabel(0)
	}
	cl.decimal()
}

// decimal steps the label's number to cl.commands and returns its
// digits: the last one's, stepped when the count is one more, formatted
// otherwise. A count (an int) has at most 19 digits, which the label has
// room for.
func (cl *CommandList) decimal() []byte {
	d := &cl.label
	at := cl.numberAt
	switch {
	case cl.commands == cl.numberOf && cl.labelLen > at:
		return d[at:cl.labelLen]
	case cl.commands == cl.numberOf+1 && cl.labelLen > at:
		i := cl.labelLen - 1
		for ; i >= at && d[i] == '9'; i-- {
			d[i] = '0'
		}
		if i < at { // all nines: one digit more, 10...0
			d[at], d[cl.labelLen] = '1', '0'
			cl.labelLen++
			i = at
		} else {
			d[i]++
		}
		cl.numberOf = cl.commands
		cl.encodeLabel(i)
	default:
		s := strconv.AppendUint(d[at:at], uint64(cl.commands), 10) // in place: the label has room
		end := at + len(s)
		clear(d[end:max(end, cl.labelLen)])
		cl.labelLen, cl.numberOf = end, cl.commands
		cl.encodeLabel(at)
	}
	return d[at:cl.labelLen]
}

// encodeLabel encodes labelWords again from the one holding byte from.
func (cl *CommandList) encodeLabel(from int) {
	cl.labelDwords = (cl.labelLen + 3) / 4
	cl.markerHeader = uint32(cmdbuf.MakeHeader(cmdbuf.OpMarker, 0, 2+cl.labelDwords))
	for w := from / 4; w < cl.labelDwords; w++ {
		cl.labelWords[w] = binary.LittleEndian.Uint32(cl.label[4*w:])
	}
}

// room is where a command encodes its packets: the command buffer's free
// room, so that put adds them without a copy, or, when little is left,
// the list's scratch (cl.words), which put copies.
func (cl *CommandList) room() []uint32 {
	if w := cl.buf.Tail(); cap(w) >= minRoom {
		return w
	}
	return cl.words[:0]
}

// minRoom is the room a command's packets usually fit in (a Barrier call
// with a few cache ranges): below it, encoding in place would mostly move.
const minRoom = 64

// put adds the packets a command encoded from room() to the command buffer,
// keeping a copied slice as the scratch: one that outgrew the room grew
// once, and need not grow again.
func (cl *CommandList) put(words []uint32) {
	if cl.buf.Commit(words) && cap(words) > cap(cl.words) {
		cl.words = words[:0]
	}
}
