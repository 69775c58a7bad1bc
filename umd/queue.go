package umd

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
)

// Queue is a command queue: an engine of the GPU executing command lists of
// one type, in submission order.
type Queue struct {
	d   *Device
	typ ddi.CommandListType
	e   *hwmodel.Engine
}

// CreateQueue creates a queue for command lists of type t (not bundles).
func (d *Device) CreateQueue(t ddi.CommandListType) (*Queue, error) {
	kind, ok := queueEngines[t]
	if !ok {
		return nil, fmt.Errorf("umd: CreateQueue: %v is not a queue type", t)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	e, err := d.m.NewEngine(kind)
	if err != nil {
		return nil, fmt.Errorf("umd: CreateQueue: %w", err)
	}
	q := &Queue{d: d, typ: t, e: e}
	d.queues = append(d.queues, q)
	return q, nil
}

// Type is the queue's command-list type.
func (q *Queue) Type() ddi.CommandListType { return q.typ }

// Engine is the hardware engine the queue runs on.
func (q *Queue) Engine() *hwmodel.Engine { return q.e }

// Fence is a fence between queues.
type Fence struct {
	d  *Device
	id uint32
}

// CreateFence creates a fence at value 0.
func (d *Device) CreateFence() *Fence {
	d.mu.Lock()
	defer d.mu.Unlock()
	return &Fence{d: d, id: d.m.NewFence()}
}

// Value is the fence's completed value (as of the last WaitIdle); 0 for a
// nil fence.
func (f *Fence) Value() uint64 {
	if f == nil {
		return 0
	}
	f.d.mu.Lock()
	defer f.d.mu.Unlock()
	v, _ := f.d.m.FenceValue(f.id)
	return v
}

// Signal queues a signal of f to v after everything submitted so far. The
// fence must be the queue's device's.
//
//go:noinline
func (q *Queue) Signal(f *Fence, v uint64) error {
	if err := q.fence("Signal", f); err != nil {
		return err
	}
	q.d.mu.Lock()
	defer q.d.mu.Unlock()
	q.e.Submit(cmdbuf.FromWords(cmdbuf.AppendFenceSignal(nil, cmdbuf.Fence{ID: f.id, Value: v})))
	return nil
}

// Wait makes the queue wait until f reaches v before what is submitted
// next. The fence must be the queue's device's.
//
//go:noinline
func (q *Queue) Wait(f *Fence, v uint64) error {
	if err := q.fence("Wait", f); err != nil {
		return err
	}
	q.d.mu.Lock()
	defer q.d.mu.Unlock()
	q.e.Submit(cmdbuf.FromWords(cmdbuf.AppendFenceWait(nil, cmdbuf.Fence{ID: f.id, Value: v})))
	return nil
}

// ErrForeignObject is the error for a fence or command list of another
// device: its numbers mean nothing on this one's GPU.
var ErrForeignObject = errors.New("umd: the object belongs to another device")

func (q *Queue) fence(op string, f *Fence) error {
	switch {
	case f == nil:
		return fmt.Errorf("umd: %s: the fence is nil", op)
	case f.d != q.d:
		return fmt.Errorf("umd: %s: %w (a fence of another device)", op, ErrForeignObject)
	}
	return nil
}

// layoutOf is a subresource's layout as submissions have left it (the
// device's view, in submission order; d.mu held).
func (r *Resource) layoutOf(sub uint32) ddi.BarrierLayout {
	if r.layouts == nil {
		return r.InitialLayout
	}
	return r.layouts[sub]
}

// setLayout records the layout a submission left; byRuntime says the
// runtime's translation of a legacy barrier set it.
func (r *Resource) setLayout(sub uint32, l ddi.BarrierLayout, byRuntime bool) {
	if r.layouts == nil {
		r.layouts = make([]ddi.BarrierLayout, r.Desc.SubresourceCount())
		for i := range r.layouts {
			r.layouts[i] = r.InitialLayout
		}
	}
	r.layouts[sub] = l
	if byRuntime && r.byRuntime == nil {
		r.byRuntime = make([]bool, len(r.layouts))
	}
	if r.byRuntime != nil {
		r.byRuntime[sub] = byRuntime
	}
}

// LegacyCreated tells the debug layer that the runtime created the
// resource through the legacy path, from an initial state (the layout
// ddi/legacy.InitialLayout gives): until a barrier of the application's
// own sets a subresource's layout, what lists do with it is the legacy
// layer's to judge (#942, #527), as after a translated barrier
// (TranslatedBarrier), so one mistake is one message.
func (d *Device) LegacyCreated(h ddi.HResource) error {
	r := d.resource(h)
	if r == nil {
		return fmt.Errorf("umd: LegacyCreated: no resource has handle 0x%x", uint64(h))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for sub := range r.Desc.SubresourceCount() {
		r.setLayout(sub, r.layoutOf(sub), true)
	}
	return nil
}

// legacyJudged reports whether the legacy layer judges what a list does
// with a subresource: its layout is a LEGACY_* one, or the runtime's
// translation of a legacy barrier set it (d.mu held).
func (r *Resource) legacyJudged(sub uint32) bool {
	return r.layoutOf(sub).IsLegacy() || r.byRuntime != nil && r.byRuntime[sub]
}

// ExecuteCommandLists submits closed command lists of the queue's type as
// one batch: the engine runs them in order and, at the end, finishes all
// its work and flushes and invalidates its caches (000 "Barrier-Free
// Access": there are no pending commands or cache flushes between
// ExecuteCommandLists). Before submitting, the accesses whose compression
// waited for the layout get it from the layouts the earlier submissions
// left; with Options.Debug, the layouts each list assumed are checked
// (000 "ExecuteCommandLists Call-Site Validation Phase"). A list that is
// open, failed recording or has the wrong type is an error, and nothing is
// submitted.
//
//go:noinline
func (q *Queue) ExecuteCommandLists(lists ...*CommandList) error {
	for i, cl := range lists {
		if cl == nil {
			return fmt.Errorf("umd: ExecuteCommandLists: list %d is nil", i)
		}
	}
	// Every list is read under its guard, shared (cmdlist.go): no Reset,
	// Close or recording call may change it meanwhile.
	for i, cl := range lists {
		if !cl.share() {
			for _, c := range lists[:i] {
				c.unshare()
			}
			return &Message{Severity: SeverityError, Category: CategoryExecution, ID: MsgInvalidWork,
				Command: "ExecuteCommandLists", Call: -1, Barrier: -1, Field: fmt.Sprintf("list %d", i),
				Rule: "another goroutine is recording, closing or resetting the command list: nothing was submitted"}
		}
	}
	defer func() {
		for _, cl := range lists {
			cl.unshare()
		}
	}()
	for i, cl := range lists {
		switch {
		case cl.d != q.d:
			return fmt.Errorf("umd: ExecuteCommandLists: list %d: %w (recorded on another device)", i, ErrForeignObject)
		case cl.destroyed:
			return &Message{Severity: SeverityError, Category: CategoryExecution, ID: MsgDestroyedObject,
				Command: "ExecuteCommandLists", Call: -1, Barrier: -1, Field: fmt.Sprintf("list %d", i),
				Rule: "the command list was destroyed (DestroyCommandList)"}
		case !cl.closed:
			return fmt.Errorf("umd: ExecuteCommandLists: list %d is still open: Close it first", i)
		case cl.err != nil:
			return fmt.Errorf("umd: ExecuteCommandLists: list %d failed recording: %w", i, cl.err)
		case cl.typ != q.typ:
			return fmt.Errorf("umd: ExecuteCommandLists: list %d is a %s list; this is a %s queue", i, cl.typ, q.typ)
		}
	}
	d := q.d
	d.mu.Lock()
	defer d.mu.Unlock()
	// A list recorded before a resource it uses was destroyed cannot run
	// (errata E-DESTROY).
	for i, cl := range lists {
		for _, t := range cl.tracks {
			if t.gen == cl.gen && t.res.destroyed.Load() {
				return &Message{Severity: SeverityError, Category: CategoryExecution, ID: MsgDestroyedObject,
					Command: "ExecuteCommandLists", Call: -1, Barrier: -1, Field: fmt.Sprintf("list %d", i), Value: t.res.Name(),
					Rule: "the list uses a resource that was destroyed after it was recorded"}
			}
		}
	}
	d.submitted++
	bufs := make([]*cmdbuf.Buffer, 0, len(lists))
	var scope splitScope
	cross := crossLists{}
	for i, cl := range lists {
		if d.opts.Debug {
			d.checkAssumptions(q, i, cl)
			d.checkAcrossLists(&cross, i, cl)
			scope.add(cl)
		}
		buf := cl.buf
		if len(cl.patches) == 0 {
			cl.held = d.submitted
		} else {
			buf = buf.Clone()
			chunks := buf.Chunks()
			for _, p := range cl.patches {
				attr := &chunks[p.pos.Chunk][p.pos.Off]
				if p.res.compressedIn(p.res.layoutOf(p.sub)) {
					*attr |= cmdbuf.AttrCompressed
				} else {
					*attr &^= cmdbuf.AttrCompressed
				}
			}
		}
		bufs = append(bufs, buf)
		for _, t := range cl.tracks {
			if t.gen != cl.gen {
				continue
			}
			t.res.lastUse = d.submitted
			if t.res.IsBuffer() {
				continue
			}
			if t.uniform {
				if t.all.known {
					for sub := uint32(0); sub < t.res.Desc.SubresourceCount(); sub++ {
						t.res.setLayout(sub, t.all.layout, t.all.legacy)
					}
				}
				continue
			}
			for sub, s := range t.subs {
				if s.known {
					t.res.setLayout(uint32(sub), s.layout, s.legacy)
				}
			}
		}
	}
	if d.opts.Debug {
		d.messages = append(d.messages, scope.unmatched()...)
	}
	q.e.Submit(bufs...)
	return nil
}

// checkAssumptions compares what a list assumed of layouts with the layouts
// its subresources have at submission (d.mu held).
func (d *Device) checkAssumptions(q *Queue, index int, cl *CommandList) {
	report := func(id MessageID, r *Resource, sub uint32, field string, value ddi.BarrierLayout, rule string) {
		d.messages = append(d.messages, Message{Severity: SeverityError, Category: CategoryExecution, ID: id,
			Command: fmt.Sprintf("ExecuteCommandLists list %d", index), Call: -1, Barrier: -1,
			Field: field, Value: value.String(), Rule: fmt.Sprintf("%s subresource %d: %s", r.Name(), sub, rule)})
	}
	for _, t := range cl.current() {
		if t.res.IsBuffer() {
			continue
		}
		check := func(sub uint32, s *subState) {
			actual := t.res.layoutOf(sub)
			if !s.known || s.first == ddi.LayoutUndefined {
				return
			}
			if s.firstLegacy && t.res.legacyJudged(sub) {
				return // legacy on both sides: the legacy layer compares the states (#527)
			}
			if id, rule := layoutBeforeError(s.first, actual); id != 0 {
				report(id, t.res, sub, "LayoutBefore", s.first, rule)
			}
		}
		if t.uniform {
			for sub := uint32(0); sub < t.res.Desc.SubresourceCount(); sub++ {
				check(sub, &t.all)
			}
		} else {
			for sub := range t.subs {
				check(uint32(sub), &t.subs[sub])
			}
		}
	}
	// A command may make an access twice (a render target is read and
	// written): one report per command, subresource and access.
	reported := map[assumption]bool{}
	for _, a := range cl.assumptions {
		actual := a.res.layoutOf(a.sub)
		if reported[a] || a.res.legacyJudged(a.sub) {
			continue // the legacy layer reports the state the access needs (#942)
		}
		switch {
		case !queueAccessesLayout(q.typ, actual):
			reported[a] = true
			report(MsgIncompatibleTextureLayout, a.res, a.sub, a.command, actual, fmt.Sprintf(`%s #%d runs on a %s queue, which cannot access a texture in %s; a barrier on a queue that can must move it to a layout this queue type may use first (000 "Queue type specific layouts", "Copy Queues")`,
				a.command, a.ordinal, q.typ, actual))
		case !ddi.TextureLayoutAccessOK(actual, actual, a.access, a.res.simultaneous):
			reported[a] = true
			report(MsgIncompatibleTextureLayout, a.res, a.sub, a.command, actual, fmt.Sprintf(`%s #%d makes a %s access, which needs a layout that allows it, without a barrier; the subresource is in %s (000 "Barrier-Free Access")`,
				a.command, a.ordinal, a.access, actual))
		}
	}
}

// queueAccessesLayout reports whether work on a queue of type t may access
// a texture in layout l: the layouts its barriers may name, and on compute
// queues DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE, which only a
// direct queue may transition but compute may read (errata E-LAYOUT-31).
// A copy queue accesses textures only in COMMON (000 "Copy Queues").
func queueAccessesLayout(t ddi.CommandListType, l ddi.BarrierLayout) bool {
	if t == ddi.CommandListTypeCompute && l == ddi.LayoutDirectQueueGenericReadComputeQueueAccessible {
		return true
	}
	rules, ok := ddi.QueueRulesFor(t)
	return ok && rules.AllowsLayout(l)
}

// layoutBeforeError says what is wrong with a barrier whose LayoutBefore
// is before on a subresource in actual (ID 0: nothing) (000 "Legacy
// layouts", "Interop with legacy ResourceBarrier"):
//
//   - a LEGACY_* layout (a legacy barrier the runtime translated) stands for
//     its legacy state's layout, or COMMON after a state promotion;
//   - a legacy barrier may not name a subresource an enhanced barrier left
//     in a layout other than COMMON, nor an enhanced barrier one a legacy
//     barrier left in a state other than COMMON
//     (BARRIER_INTEROP_INVALID_LAYOUT);
//   - otherwise LayoutBefore must be the layout.
func layoutBeforeError(before, actual ddi.BarrierLayout) (MessageID, string) {
	switch {
	case before == actual || before.IsLegacy() && actual == ddi.LayoutCommon:
		return 0, ""
	case before.IsLegacy() && !actual.IsLegacy():
		return MsgBarrierInteropInvalidLayout, fmt.Sprintf(`a legacy barrier names a subresource an enhanced barrier left in %s: it must be put in COMMON first (000 "Interop with legacy ResourceBarrier")`, actual)
	case actual.IsLegacy() && !before.IsLegacy():
		return MsgBarrierInteropInvalidLayout, fmt.Sprintf(`the subresource is in the legacy layout %s: a legacy barrier must return it to COMMON before this barrier names it (000 "Interop with legacy ResourceBarrier")`, actual)
	}
	return MsgLayoutMismatch, fmt.Sprintf(`the subresource is in %s when the list runs (000 "Layout Validation")`, actual)
}

// splitScope matches split halves across the lists of one
// ExecuteCommandLists, for the debug layer's warning about halves that
// cross it where they may not: on buffers and simultaneous-access
// textures, where they do nothing, and on a texture whose split names the
// COMMON layout (000 "Split Barriers"; 000 "Barrier API Call Validation":
// buffer and COMMON-layout splits do not cross the call; errata
// E-SPLIT-COMMON-ACROSS-EXECUTE).
type splitScope struct {
	lists []*CommandList
}

func (s *splitScope) add(cl *CommandList) { s.lists = append(s.lists, cl) }

// splitHalf is one subresource's split half in a scope (sub ^0: all of a
// resource without layouts, which is one).
type splitHalf struct {
	r   *Resource
	sub uint32
}

// unmatched lists the warnings for split halves the scope does not pair
// where a split may not cross it: a begin still open at its end, an end
// whose begin is not in it.
func (s *splitScope) unmatched() []Message {
	type warning struct {
		list int
		res  ddi.HResource
		sub  uint32
		msg  Message
	}
	var ws []warning
	warn := func(i int, h splitHalf, field, what string) {
		r := h.r
		why, value := "on a buffer or simultaneous-access texture a split across ExecuteCommandLists does nothing", r.Name()
		if h.sub != ^uint32(0) {
			why, value = "a split that names the COMMON layout may not cross ExecuteCommandLists", subName(r, h.sub)
		}
		ws = append(ws, warning{i, r.Handle, h.sub, Message{Severity: SeverityWarning, Category: CategoryExecution, ID: MsgUnusedCrossExecuteSplitBarrier,
			Command: fmt.Sprintf("ExecuteCommandLists list %d", i), Call: -1, Barrier: -1, Field: field, Value: "SPLIT",
			Rule: fmt.Sprintf(`%s: %s; %s (000 "Split Barriers")`, value, what, why)}})
	}
	open := map[splitHalf]int{}
	half := func(i int, h splitHalf, st *subState, common bool) {
		if st.foreignEnd && (h.sub == ^uint32(0) || st.foreignCommon) {
			if _, ok := open[h]; ok {
				delete(open, h)
			} else {
				warn(i, h, "SyncBefore", "the end of a split whose begin is not in this ExecuteCommandLists")
			}
		}
		if st.split.event != 0 && common {
			open[h] = i
		}
	}
	isCommon := func(st *subState) bool {
		return st.split.event != 0 && (st.split.layoutBefore == ddi.LayoutCommon || st.split.layoutAfter == ddi.LayoutCommon)
	}
	for i, cl := range s.lists {
		for _, t := range cl.tracks {
			r := t.res
			if t.gen != cl.gen {
				continue
			}
			if r.IsBuffer() || r.Desc.Desc.IsSimultaneousAccess() {
				half(i, splitHalf{r, ^uint32(0)}, t.sub(0), true)
				continue
			}
			// A texture: only the halves that name COMMON, per
			// subresource (one state for all while the track is uniform).
			n := uint32(len(t.subs))
			if t.uniform {
				if st := &t.all; !isCommon(st) && !st.foreignCommon {
					continue
				}
				n = r.Desc.SubresourceCount()
			}
			for sub := range n {
				st := t.sub(sub)
				half(i, splitHalf{r, sub}, st, isCommon(st))
			}
		}
	}
	for h, i := range open {
		warn(i, h, "SyncAfter", "a split begun and not ended in this ExecuteCommandLists")
	}
	// The tracks are a map: order the warnings by list, resource and
	// subresource.
	slices.SortStableFunc(ws, func(a, b warning) int {
		if c := cmp.Compare(a.list, b.list); c != 0 {
			return c
		}
		if c := cmp.Compare(a.res, b.res); c != 0 {
			return c
		}
		return cmp.Compare(a.sub, b.sub)
	})
	out := make([]Message, len(ws))
	for i, w := range ws {
		out[i] = w.msg
	}
	return out
}
