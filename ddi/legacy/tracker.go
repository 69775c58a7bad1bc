package legacy

import (
	"errors"
	"fmt"
	"sync"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/ddi/debug"
)

// Message and MessageID are the debug layer's (package debug), one type
// with the driver's: a legacy finding is an error unless its Severity is
// a warning, names no Call (-1) and no category, and Subresource is
// AllSubresources where the finding is the resource's.
type (
	Message   = debug.Message
	MessageID = debug.MessageID
)

// The messages of legacy barrier validation (debug has their names).
const (
	MsgInvalidType         = debug.MsgInvalidType
	MsgInvalidSubresource  = debug.MsgInvalidSubresource
	MsgMatchingStates      = debug.MsgMatchingStates
	MsgInvalidCombination  = debug.MsgInvalidCombination
	MsgBeforeAfterMismatch = debug.MsgBeforeAfterMismatch
	MsgInvalidResource     = debug.MsgInvalidResource
	MsgInvalidFlags        = debug.MsgInvalidFlags
	MsgInvalidSplitBarrier = debug.MsgInvalidSplitBarrier
	MsgUnmatchedEnd        = debug.MsgUnmatchedEnd
	MsgUnmatchedBegin      = debug.MsgUnmatchedBegin
	MsgIncompatibleState   = debug.MsgIncompatibleState
	MsgMismatchingBeginEnd = debug.MsgMismatchingBeginEnd
	MsgDuplicateTransition = debug.MsgDuplicateTransition
	MsgCreateStateIgnored  = debug.MsgCreateStateIgnored
	MsgInteropInvalidState = debug.MsgInteropInvalidState
)

// MessageIDs lists the IDs the legacy layer reports, in order.
func MessageIDs() []MessageID {
	return []MessageID{MsgInvalidType, MsgInvalidSubresource, MsgMatchingStates, MsgInvalidCombination, MsgBeforeAfterMismatch, MsgInvalidResource, MsgInvalidFlags, MsgInvalidSplitBarrier, MsgUnmatchedEnd, MsgUnmatchedBegin, MsgIncompatibleState, MsgMismatchingBeginEnd, MsgDuplicateTransition, MsgCreateStateIgnored, MsgInteropInvalidState}
}

// Tracker is the runtime's record of the legacy state of every subresource
// of a device: what a ResourceBarrier's StateBefore is checked against,
// what promotion starts from and what decay returns to COMMON (000
// "Resource State Promotion and Decay"; legacy-interop facts 2, 3). It
// reports; it never changes what reaches the driver except that a barrier
// it refuses is not passed on.
type Tracker struct {
	mu  sync.Mutex
	res map[ddi.HResource]*tracked
}

type tracked struct {
	Resource
	state []ddi.ResourceStates // each subresource's state between submissions
	// legacy: the resource has a legacy state: it was created with one or
	// a legacy barrier on it was submitted, and no enhanced barrier since
	// (000 "Legacy vs Enhanced State Validation").
	legacy bool
}

// NewTracker returns a tracker of no resources.
func NewTracker() *Tracker { return &Tracker{res: map[ddi.HResource]*tracked{}} }

// InitialLayout is the layout the runtime creates a texture in when the
// application gives a legacy initial state: the state's (StateEquivalent),
// COMMON for a simultaneous-access texture; UNDEFINED for a buffer, which
// has none (000 "Initial Resource State").
func InitialLayout(r Resource, initial ddi.ResourceStates) (ddi.BarrierLayout, error) {
	e, err := StateEquivalent(initial, r.Texture)
	switch {
	case err != nil:
		return 0, err
	case !r.Texture:
		return ddi.LayoutUndefined, nil
	case r.Simultaneous:
		return ddi.LayoutCommon, nil
	}
	return e.Layout, nil
}

// Create records a resource created through the legacy path with an
// initial state (InitialLayout has accepted it). A buffer starts in
// COMMON whatever the state, with the runtime's warning when another was
// given (000 "Initial Resource State").
func (t *Tracker) Create(h ddi.HResource, r Resource, subresources uint32, initial ddi.ResourceStates) []Message {
	var msgs []Message
	state := initial
	if !r.Texture && initial != ddi.StateCommon {
		msgs = append(msgs, Message{Severity: debug.SeverityWarning, Category: debug.CategoryNone, Call: -1, ID: MsgCreateStateIgnored, Command: "CreateResource", Barrier: -1,
			Resource: h, Subresource: AllSubresources, Field: "InitialState",
			Rule: fmt.Sprintf("a buffer is created in COMMON whatever its initial state; %s is ignored", initial)})
		state = ddi.StateCommon
	}
	tr := &tracked{Resource: r, state: make([]ddi.ResourceStates, subresources), legacy: true}
	for i := range tr.state {
		tr.state[i] = state
	}
	t.mu.Lock()
	t.res[h] = tr
	t.mu.Unlock()
	return msgs
}

// CreateEnhanced records a resource created with a layout: it has no
// legacy state until a legacy barrier on it is submitted, and COMMON is
// where legacy barriers find it (interop: 000 "Interop with legacy
// ResourceBarrier").
func (t *Tracker) CreateEnhanced(h ddi.HResource, r Resource, subresources uint32) {
	t.mu.Lock()
	t.res[h] = &tracked{Resource: r, state: make([]ddi.ResourceStates, subresources)}
	t.mu.Unlock()
}

// Destroy forgets a resource.
func (t *Tracker) Destroy(h ddi.HResource) {
	t.mu.Lock()
	delete(t.res, h)
	t.mu.Unlock()
}

// State is a subresource's legacy state between submissions and whether
// the resource has one.
func (t *Tracker) State(h ddi.HResource, sub uint32) (ddi.ResourceStates, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.res[h]
	if r == nil || sub >= uint32(len(r.state)) {
		return 0, false
	}
	return r.state[sub], r.legacy
}

func (t *Tracker) lookup(h ddi.HResource) *tracked {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.res[h]
}

// Promotable reports whether a subresource of r in COMMON may be used in
// state s without a barrier (000 "Resource State Promotion and Decay"):
// the rule the tracker checks, for the workloads' compiler (bench) to
// follow.
func Promotable(r Resource, s ddi.ResourceStates) bool { return promotable(r, s) }

// Decays reports whether a subresource of r that a submission on a queue
// of type q used returns to COMMON when the submission completes: a
// buffer's, a simultaneous-access texture's, any used on a copy queue, and
// any whose state the submission reached by promotion to read states
// alone (promotedRead) (000 "Resource State Promotion and Decay").
func Decays(r Resource, q ddi.CommandListType, promotedRead bool) bool {
	return !r.Texture || r.Simultaneous || q == ddi.CommandListTypeCopy || promotedRead
}

// promotable reports whether a subresource in COMMON may be used in state s
// without a barrier: a buffer or simultaneous-access texture in any state
// but the depth states, another texture in shader-resource and copy states
// only; reads combine, a write stands alone (legacy-interop fact 2).
func promotable(r Resource, s ddi.ResourceStates) bool {
	if s == ddi.StateCommon {
		return true
	}
	if s&writeStates != 0 && s&(s-1) != 0 {
		return false
	}
	if !r.Texture || r.Simultaneous {
		return s&(ddi.StateDepthWrite|ddi.StateDepthRead) == 0
	}
	const textureStates = ddi.StateCopyDest | ddi.StateCopySource | ddi.StateNonPixelShaderResource | ddi.StatePixelShaderResource
	return s&^textureStates == 0
}

// subKey names one subresource.
type subKey struct {
	h   ddi.HResource
	sub uint32
}

// listSub is what a list knows of one subresource it touches.
type listSub struct {
	// need is what the list assumes the subresource holds when it
	// starts, set by its first barrier's StateBefore (needSet); uses is
	// what work asked of it before that (promotion, or the state already).
	need    ddi.ResourceStates
	needSet bool
	uses    ddi.ResourceStates
	// cur is the state after the list's barriers so far (known), and
	// promoted says it was reached from COMMON by use alone.
	cur      ddi.ResourceStates
	known    bool
	promoted bool
	// begun is a split transition begun and not ended: its states.
	begun         bool
	splitBefore   ddi.ResourceStates
	splitAfter    ddi.ResourceStates
	barriered     bool // a legacy barrier named it
	enhanced      bool // an enhanced barrier named the resource
	enhancedAfter bool // ... after which the list used legacy barriers on it
	touched       bool // the list did any of the above
}

// List is one command list's side of the tracker: it sees the list's
// legacy barriers, the work's uses and its enhanced barriers, and the
// submission checks what it assumed.
type List struct {
	t   *Tracker
	typ ddi.CommandListType
	// res holds, per resource the list touches, every subresource's
	// record (indexed by subresource); order the touched ones in the
	// order the list first touched them, which reports follow.
	res   map[ddi.HResource][]listSub
	order []subKey
}

// NewList returns the view of a new command list of a type.
func (t *Tracker) NewList(typ ddi.CommandListType) *List {
	return &List{t: t, typ: typ, res: map[ddi.HResource][]listSub{}}
}

// Reset forgets what the list recorded.
func (l *List) Reset() {
	clear(l.res)
	l.order = l.order[:0]
}

// peek is what the list recorded of a subresource, nil if nothing.
func (l *List) peek(h ddi.HResource, sub uint32) *listSub {
	if subs := l.res[h]; int(sub) < len(subs) && subs[sub].touched {
		return &subs[sub]
	}
	return nil
}

// sub is the list's record of a subresource of r, made on first touch.
func (l *List) sub(h ddi.HResource, r *tracked, sub uint32) *listSub {
	subs := l.res[h]
	if len(subs) < len(r.state) {
		subs = append(subs, make([]listSub, len(r.state)-len(subs))...)
		l.res[h] = subs
	}
	s := &subs[sub]
	if !s.touched {
		s.touched = true
		l.order = append(l.order, subKey{h, sub})
	}
	return s
}

// subresources is the range of subresources one index names
// (AllSubresources: all of them).
func subresources(r *tracked, sub uint32) (first, end uint32) {
	if sub != AllSubresources {
		return sub, sub + 1
	}
	return 0, uint32(len(r.state))
}

// ResourceBarrier is one ID3D12GraphicsCommandList::ResourceBarrier call:
// it checks each barrier against what the list knows, updates it, and
// returns the enhanced barriers for the driver's Barrier DDI (those of
// the barriers it refused left out) and what it found.
func (l *List) ResourceBarrier(bs []Barrier) ([]ddi.Barrier, []Message) {
	const cmd = "ResourceBarrier"
	var out []ddi.Barrier
	var msgs []Message
	// named holds the subresources the call's accepted transitions named,
	// for RESOURCE_BARRIER_DUPLICATE_SUBRESOURCE_TRANSITIONS; its size is
	// bounded by the subresources of the resources named, which exist.
	var named map[subKey]struct{}
	for i, b := range bs {
		bad := func(id MessageID, h ddi.HResource, sub uint32, field, rule string, args ...any) {
			msgs = append(msgs, Message{Category: debug.CategoryNone, Call: -1, ID: id, Command: cmd, Barrier: i, Resource: h, Subresource: sub, Field: field,
				Rule: fmt.Sprintf(rule, args...)})
		}
		var res Resource
		var r *tracked // a transition's resource
		switch b.Type {
		case TypeTransition:
			if r = l.t.lookup(b.Resource); r == nil {
				bad(MsgInvalidResource, b.Resource, AllSubresources, "pResource", "no resource has this handle")
				continue
			}
			res = r.Resource
			if b.Subresource != AllSubresources && b.Subresource >= uint32(len(r.state)) {
				bad(MsgInvalidSubresource, b.Resource, b.Subresource, "Subresource",
					"the resource has %d subresources", len(r.state))
				continue
			}
		case TypeUAV, TypeAliasing:
			ok := true
			for _, h := range []ddi.HResource{b.Resource, b.ResourceBefore, b.ResourceAfter} {
				if h == 0 {
					continue
				}
				x := l.t.lookup(h)
				if x == nil {
					bad(MsgInvalidResource, h, AllSubresources, "pResource", "no resource has this handle")
					ok = false
					continue
				}
				res = x.Resource
			}
			if !ok {
				continue
			}
		default:
			bad(MsgInvalidType, 0, AllSubresources, "Type", "no resource barrier type is %d", uint32(b.Type))
			continue
		}
		e, err := Translate(b, res, l.typ)
		if err != nil {
			// A state that stands for none is an invalid combination;
			// anything else Translate refuses is the flags'.
			id, field := MsgInvalidFlags, "Flags"
			if se := (*StateError)(nil); errors.As(err, &se) {
				id, field = MsgInvalidCombination, ""
			}
			bad(id, b.Resource, b.Subresource, field, "%v", err)
			continue
		}
		if r != nil {
			if b.StateBefore == b.StateAfter {
				bad(MsgMatchingStates, b.Resource, b.Subresource, "StateAfter",
					"StateBefore and StateAfter are both %s: a transition must change the state", b.StateAfter)
				continue
			}
			if !l.transition(b, r, bad) {
				continue
			}
			if named == nil {
				named = make(map[subKey]struct{})
			}
			if sub, dup := nameOnce(named, b.Resource, r, b.Subresource); dup {
				// A warning: the call still does both, in order (the
				// samples that meet it silence it and run on).
				msgs = append(msgs, Message{Severity: debug.SeverityWarning, Category: debug.CategoryNone, Call: -1, ID: MsgDuplicateTransition,
					Command: cmd, Barrier: i, Resource: b.Resource, Subresource: sub, Field: "Subresource",
					Rule: "an earlier transition of this ResourceBarrier call names the subresource too: transition each subresource once a call"})
			}
		}
		out = append(out, e)
	}
	return out, msgs
}

// nameOnce records the subresources a transition names (sub may be
// AllSubresources) and reports the first one an earlier transition of the
// call named, if any.
func nameOnce(named map[subKey]struct{}, h ddi.HResource, r *tracked, sub uint32) (uint32, bool) {
	first, end := subresources(r, sub)
	dup, found := uint32(0), false
	for s := first; s < end; s++ {
		k := subKey{h, s}
		if _, ok := named[k]; ok && !found {
			dup, found = s, true
		}
		named[k] = struct{}{}
	}
	return dup, found
}

// transition checks a transition's halves against the list's record of
// each subresource it names and moves them on; false if it refused it.
func (l *List) transition(b Barrier, r *tracked, bad func(MessageID, ddi.HResource, uint32, string, string, ...any)) bool {
	first, end := subresources(r, b.Subresource)
	// Check every subresource before changing any: a refused barrier
	// changes nothing.
	for sub := first; sub < end; sub++ {
		s := l.peek(b.Resource, sub)
		switch {
		case s != nil && s.begun && b.Flags != FlagEndOnly:
			bad(MsgInvalidSplitBarrier, b.Resource, sub, "Flags",
				"a split transition (%s -> %s) is begun on the subresource: only its END_ONLY may name it", s.splitBefore, s.splitAfter)
			return false
		case b.Flags == FlagEndOnly && (s == nil || !s.begun):
			bad(MsgUnmatchedEnd, b.Resource, sub, "Flags", "END_ONLY without a BEGIN_ONLY before it in this command list")
			return false
		case b.Flags == FlagEndOnly && (s.splitBefore != b.StateBefore || s.splitAfter != b.StateAfter):
			bad(MsgMismatchingBeginEnd, b.Resource, sub, "StateBefore, StateAfter",
				"the END_ONLY (%s -> %s) must repeat its BEGIN_ONLY's states (%s -> %s)", b.StateBefore, b.StateAfter, s.splitBefore, s.splitAfter)
			return false
		case b.Flags != FlagEndOnly && s != nil && s.known && s.cur != b.StateBefore:
			bad(MsgBeforeAfterMismatch, b.Resource, sub, "StateBefore",
				"%s, but the command list left the subresource in %s", b.StateBefore, s.cur)
			return false
		case b.Flags != FlagEndOnly && s != nil && !s.known && b.StateBefore&s.uses != s.uses:
			// Work before the barrier used it in s.uses: it held those
			// states already, or was promoted to them, so it is not in a
			// state without them (a COMMON it was promoted from included).
			bad(MsgBeforeAfterMismatch, b.Resource, sub, "StateBefore",
				"%s, but the command list used the subresource as %s before it", b.StateBefore, s.uses)
			return false
		}
	}
	for sub := first; sub < end; sub++ {
		s := l.sub(b.Resource, r, sub)
		s.barriered = true
		if s.enhanced {
			s.enhancedAfter = true
		}
		switch b.Flags {
		case FlagBeginOnly:
			if !s.known {
				s.need, s.needSet = b.StateBefore, true
			}
			s.begun, s.splitBefore, s.splitAfter = true, b.StateBefore, b.StateAfter
			s.cur, s.known = b.StateBefore, true
		case FlagEndOnly:
			s.begun = false
			s.cur, s.known, s.promoted = b.StateAfter, true, false
		default:
			if !s.known {
				s.need, s.needSet = b.StateBefore, true
			}
			s.cur, s.known, s.promoted = b.StateAfter, true, false
		}
	}
	return true
}

// Use records that a command of the list accesses a subresource
// (AllSubresources: all) in a legacy state other than COMMON: where the list knows the
// state, it must hold that access or be promotable to it from COMMON
// (reads accumulate); where it does not, the submission checks it.
func (l *List) Use(command string, h ddi.HResource, sub uint32, state ddi.ResourceStates) []Message {
	r := l.t.lookup(h)
	if r == nil || sub != AllSubresources && sub >= uint32(len(r.state)) {
		return nil // the driver reports a handle of nothing or a subresource past the resource's
	}
	var msgs []Message
	first, end := subresources(r, sub)
	for sb := first; sb < end; sb++ {
		s := l.sub(h, r, sb)
		switch {
		case s.begun:
			msgs = append(msgs, Message{Category: debug.CategoryNone, Call: -1, ID: MsgInvalidSplitBarrier, Command: command, Barrier: -1, Resource: h, Subresource: sb,
				Rule: fmt.Sprintf("the subresource is between the halves of a split transition (%s -> %s) and cannot be used", s.splitBefore, s.splitAfter)})
		case !s.known:
			s.uses |= state
		case s.cur&state == state:
		case (s.cur == ddi.StateCommon || s.promoted) && promotable(r.Resource, s.cur|state):
			s.cur |= state
			s.promoted = true
		default:
			msgs = append(msgs, Message{Category: debug.CategoryNone, Call: -1, ID: MsgIncompatibleState, Command: command, Barrier: -1, Resource: h, Subresource: sb,
				Rule: fmt.Sprintf("the command needs %s, but the command list left the subresource in %s", state, s.cur)})
		}
	}
	return msgs
}

// EnhancedBarrier records that an enhanced barrier of the list names a
// resource. A resource with a legacy state must be in COMMON first (000
// "Interop with legacy ResourceBarrier"); where the list left it
// elsewhere that is an error now, otherwise the submission checks it.
func (l *List) EnhancedBarrier(command string, h ddi.HResource) []Message {
	r := l.t.lookup(h)
	if r == nil {
		return nil
	}
	var msgs []Message
	for sb := range uint32(len(r.state)) {
		s := l.sub(h, r, sb)
		if s.barriered && s.known && s.cur != ddi.StateCommon {
			msgs = append(msgs, interopMessage(command, h, sb, s.cur))
		}
		s.enhanced = true
	}
	return msgs
}

func interopMessage(command string, h ddi.HResource, sub uint32, s ddi.ResourceStates) Message {
	return Message{Category: debug.CategoryNone, Call: -1, ID: MsgInteropInvalidState, Command: command, Barrier: -1, Resource: h, Subresource: sub,
		Rule: fmt.Sprintf("the resource was last transitioned by a legacy barrier and is in %s: it must be in COMMON before an enhanced barrier names it", s)}
}

// Close reports the split transitions the list began and did not end
// (legacy splits end in the list that began them: E-LEGACY-SPLIT).
func (l *List) Close() []Message {
	var msgs []Message
	for _, k := range l.order {
		if s := l.peek(k.h, k.sub); s.begun {
			msgs = append(msgs, Message{Category: debug.CategoryNone, Call: -1, ID: MsgUnmatchedBegin, Command: "Close", Barrier: -1, Resource: k.h, Subresource: k.sub,
				Rule: fmt.Sprintf("a BEGIN_ONLY transition (%s -> %s) is not ended in this command list", s.splitBefore, s.splitAfter)})
		}
	}
	return msgs
}

// Execute is one ExecuteCommandLists on a queue of a type: each list in
// turn is checked against the states the lists before it left (no decay
// between the lists of one call), then the states decay: a buffer's, a
// simultaneous-access texture's, any used on a copy queue, and any reached
// by promotion to read states alone return to COMMON (000 "Resource State
// Promotion and Decay"). The GPU's completion is what decays them; the
// tracker applies it at submission, as the runtime's validation sees the
// next submission.
func (t *Tracker) Execute(q ddi.CommandListType, lists ...*List) []Message {
	t.mu.Lock()
	defer t.mu.Unlock()
	var msgs []Message
	// promotedRead: each subresource the lists touch, and whether its
	// final state was reached by promotion to reads alone.
	promotedRead := map[subKey]bool{}
	var touched []subKey
	for i, l := range lists {
		cmd := fmt.Sprintf("ExecuteCommandLists list %d", i)
		for _, k := range l.order {
			r := t.res[k.h]
			if r == nil || k.sub >= uint32(len(r.state)) {
				continue // destroyed since: the driver refuses the list
			}
			s := l.peek(k.h, k.sub)
			if !r.legacy && !s.barriered {
				continue // enhanced barriers keep this resource; the driver checks it
			}
			actual := r.state[k.sub]
			switch {
			case s.needSet && actual != s.need && !(actual == ddi.StateCommon && promotable(r.Resource, s.need|s.uses)):
				msgs = append(msgs, Message{Category: debug.CategoryNone, Call: -1, ID: MsgBeforeAfterMismatch, Command: cmd, Barrier: -1, Resource: k.h, Subresource: k.sub,
					Field: "StateBefore", Rule: fmt.Sprintf("the command list's first transition expects %s, but the subresource is in %s", s.need, actual)})
			case !s.needSet && s.uses != 0 && actual&s.uses != s.uses && !(actual == ddi.StateCommon && promotable(r.Resource, s.uses)):
				msgs = append(msgs, Message{Category: debug.CategoryNone, Call: -1, ID: MsgIncompatibleState, Command: cmd, Barrier: -1, Resource: k.h, Subresource: k.sub,
					Rule: fmt.Sprintf("the command list uses the subresource as %s, but it is in %s", s.uses, actual)})
			}
			if s.enhanced && r.legacy && actual != ddi.StateCommon && !s.barriered {
				msgs = append(msgs, interopMessage(cmd, k.h, k.sub, actual))
			}
			promoted := false
			switch {
			case s.known:
				r.state[k.sub] = s.cur
				promoted = s.promoted
			case actual == ddi.StateCommon && s.uses != 0:
				r.state[k.sub] = s.uses
				promoted = true
			default:
				// Used in the state an earlier list of this submission
				// promoted it to: still a promotion, which decays.
				promoted = promotedRead[k]
			}
			switch {
			case s.enhanced && !s.enhancedAfter:
				r.legacy = false // an enhanced barrier took it over
			case s.barriered:
				r.legacy = true
			}
			if _, ok := promotedRead[k]; !ok {
				touched = append(touched, k)
			}
			promotedRead[k] = promoted && r.state[k.sub]&writeStates == 0
		}
	}
	for _, k := range touched {
		r := t.res[k.h]
		if Decays(r.Resource, q, promotedRead[k]) {
			r.state[k.sub] = ddi.StateCommon
		}
	}
	return msgs
}
