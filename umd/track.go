package umd

import (
	"cmp"
	"slices"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
)

// Record-time tracking. While it records, a command list cannot know a
// subresource's layout until it records a barrier on it (000 "Command List
// Record Validation Phase"); from then on it knows the layout, and checks
// the spec's sequencing rules against what it recorded: LayoutBefore
// against the layout it knows, SyncBefore against the previous barrier's
// SyncAfter (000 "Sequential Barriers"), the SYNC_NONE promises (000
// "Synchronization"), split pairs (000 "Split Barriers").

// subState is what the list knows of one subresource.
type subState struct {
	barriered bool // a barrier in this list named it
	// known: a barrier in this list set the layout (not a memory-only
	// barrier, both layouts UNDEFINED, which leaves it as it was: 000
	// "D3D12_BARRIER_LAYOUT_UNDEFINED"); first is that first barrier's
	// LayoutBefore, layout the last one's LayoutAfter.
	known  bool
	first  ddi.BarrierLayout
	layout ddi.BarrierLayout
	// legacy: the last layout was set by the runtime's translation of a
	// legacy barrier, so the legacy layer, which knows the state, judges
	// the list's accesses of it (#942), not the driver.
	legacy bool
	// firstLegacy: the first barrier that set the layout was the
	// runtime's translation of a legacy barrier.
	firstLegacy bool
	syncAfter   ddi.BarrierSync // the last barrier's SyncAfter, umbrellas expanded
	accessed    bool            // a command accessed it
	// trailingAccess: the list's last use of it was an access, which no
	// barrier of the list has waited for.
	trailingAccess bool
	ended          bool     // the last barrier had SyncAfter NONE: nothing may follow
	split          splitKey // an open split begin (event 0: none)
	// foreignEnd: the list ended a split it did not begin (the begin is in
	// an earlier list or ExecuteCommandLists).
	foreignEnd bool
	// foreignCommon: such an end was a texture's with COMMON as a layout,
	// which may not cross an ExecuteCommandLists either (queue.go
	// splitScope).
	foreignCommon bool
	// lead is the first thing the list did to the subresource, which the
	// debug layer checks against what earlier lists left (crosslist.go).
	lead lead
}

// lead is the first thing a list does to a subresource.
type lead uint8

const (
	leadNone         lead = iota
	leadSplitEnd          // the end of a split the list did not begin
	leadBarrier           // any other barrier
	leadSyncNoneFrom      // a barrier with SyncBefore NONE
	leadAccess            // a command's access
)

// note records what the list does first to the subresource.
func (s *subState) note(l lead) {
	if s.lead == leadNone {
		s.lead = l
	}
}

// splitKey is what an end-split barrier must repeat of its begin, and the
// event the begin signals.
type splitKey struct {
	event                     uint32
	layoutBefore, layoutAfter ddi.BarrierLayout
	accessBefore, accessAfter ddi.BarrierAccess
}

// track is a resource's subresources: one state for all while they agree,
// one each once a barrier or access names only some.
type track struct {
	gen     uint32
	res     *Resource
	uniform bool
	all     subState
	subs    []subState
}

// trackOf returns the resource's tracking, fresh if the list has not
// touched it since its last Reset. It allocates only the first time a list
// meets a resource.
func (cl *CommandList) trackOf(r *Resource) *track { return cl.trackAt(r, cl.entry(r.Handle)) }

// trackAt is trackOf given the resource's tracks entry t (entry; nil if
// there is none).
func (cl *CommandList) trackAt(r *Resource, t *track) *track {
	if t == nil {
		t = &track{res: r}
		cl.tracks[r.Handle] = t
		cl.recent[uint64(r.Handle)%uint64(len(cl.recent))] = t
	}
	if t.gen != cl.gen || t.res != r {
		// One statement each: a multiple assignment builds the zero
		// state aside and copies it, in pieces that overlap, which
		// stalled the stores (a tenth of a mixed barrier call).
		t.gen = cl.gen
		t.res = r
		t.uniform = true
		t.all = subState{}
	}
	return t
}

// entry is the tracks entry of handle h, nil if there is none. An entry,
// once made, stays the handle's for the list's life (a resource that
// reuses a destroyed one's handle gets its track reset), and its res is
// always set, so one kept in cl.recent answers for its handle.
func (cl *CommandList) entry(h ddi.HResource) *track {
	if t := cl.recent[uint64(h)%uint64(len(cl.recent))]; t != nil && t.res.Handle == h {
		return t
	}
	return cl.entryOf(h)
}

// entryOf is entry from the map, kept in recent when found.
//
//go:noinline
func (cl *CommandList) entryOf(h ddi.HResource) *track {
	t := cl.tracks[h]
	if t != nil {
		cl.recent[uint64(h)%uint64(len(cl.recent))] = t
	}
	return t
}

// known returns the list's knowledge of r, given its tracks entry t
// (entry), nil if the list has not touched the resource since its last
// Reset.
func (cl *CommandList) known(r *Resource, t *track) *track {
	if t == nil || t.gen != cl.gen || t.res != r {
		return nil
	}
	return t
}

// current returns the tracks of the resources the list touched since its
// last Reset, in handle order (the map's order is random; messages built
// from them must not be).
func (cl *CommandList) current() []*track {
	out := make([]*track, 0, len(cl.tracks))
	for _, t := range cl.tracks {
		if t.gen == cl.gen {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b *track) int { return cmp.Compare(a.res.Handle, b.res.Handle) })
	return out
}

// sub returns the state of one subresource.
func (t *track) sub(i uint32) *subState {
	if t.uniform {
		return &t.all
	}
	return &t.subs[i]
}

// each calls f for the state of every subresource of sel; whole says sel
// is every subresource, which keeps a uniform track uniform.
func (t *track) each(sel resource.Selection, whole bool, f func(s *subState)) {
	if t.uniform {
		if whole {
			f(&t.all)
			return
		}
		t.expand()
	}
	if whole {
		for i := range t.subs {
			f(&t.subs[i])
		}
		return
	}
	sel.Each(func(i uint32) { f(&t.subs[i]) })
}

// expand gives every subresource its own state, copied from the shared one.
func (t *track) expand() {
	if !t.uniform {
		return
	}
	n := int(t.res.Desc.SubresourceCount())
	if cap(t.subs) >= n {
		t.subs = t.subs[:n]
	} else {
		t.subs = make([]subState, n)
	}
	for i := range t.subs {
		t.subs[i] = t.all
	}
	t.uniform = false
}
