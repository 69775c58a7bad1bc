package umd

import "fmt"

// The debug layer's checks that span command lists. A list records
// without knowing what runs before it, so its record-time checks (track.go,
// validate.go) see only itself; at ExecuteCommandLists the debug layer
// compares the first thing each list does to a subresource with what the
// lists before it left:
//
//   - a split begun in an earlier list — of this ExecuteCommandLists or an
//     earlier one — must be ended before any other barrier or access names
//     the subresource, and an end needs a begin (000 "Split Barriers");
//   - SyncBefore NONE promises that no earlier access in the
//     ExecuteCommandLists scope still needs waiting for (one not followed by
//     a barrier in its list), and after SyncAfter NONE no access in the
//     scope may follow (000 "D3D12_BARRIER_SYNC_NONE"). Across lists only
//     accesses count: a later barrier is the runtime's own pattern (a
//     legacy promotion, a memory-only barrier) and is ordered by its syncs.
//
// A texture's split stays open across submissions (Resource.openSplits); a
// buffer's or simultaneous-access texture's does nothing across them (000
// "Split Barriers"; splitScope warns) and is tracked per
// ExecuteCommandLists, which is also the SYNC_NONE scope (crossLists).

// crossLists is what the lists so far of one ExecuteCommandLists did to
// each subresource.
type crossLists map[*Resource][]crossSub

type crossSub struct {
	accessed bool // a list's last use of it was an access, not a barrier
	ended    bool // the last barrier on it had SyncAfter NONE
	split    bool // a buffer's or simultaneous-access texture's open split
}

func (c crossLists) sub(r *Resource, sub uint32) *crossSub {
	subs := c[r]
	if subs == nil {
		subs = make([]crossSub, r.Desc.SubresourceCount())
		c[r] = subs
	}
	return &subs[sub]
}

// checkAcrossLists checks list index of a submission against what earlier
// lists left, then records what it leaves (d.mu held).
func (d *Device) checkAcrossLists(c *crossLists, index int, cl *CommandList) {
	report := func(id MessageID, r *Resource, sub uint32, field, rule string) {
		d.messages = append(d.messages, Message{Severity: SeverityError, Category: CategoryExecution, ID: id,
			Command: fmt.Sprintf("ExecuteCommandLists list %d", index), Call: -1, Barrier: -1,
			Field: field, Value: subName(r, sub), Rule: rule})
	}
	for _, t := range cl.current() {
		r := t.res
		for sub := range r.Desc.SubresourceCount() {
			s := t.sub(sub)
			if s.lead == leadNone {
				continue
			}
			x := c.sub(r, sub)
			layoutless := r.IsBuffer() || r.simultaneous
			open := x.split
			if !layoutless {
				open = r.splitOpen(sub)
			}
			switch {
			case open && s.lead != leadSplitEnd:
				report(MsgSplitMismatch, r, sub, "SyncBefore",
					`a split barrier an earlier command list began is still open: its end must come before any other barrier or access (000 "Split Barriers")`)
			case !open && s.lead == leadSplitEnd && !layoutless:
				report(MsgSplitMismatch, r, sub, "SyncBefore",
					`this list ends a split barrier that no earlier command list began (000 "Split Barriers")`)
			case x.ended && s.lead == leadAccess:
				report(MsgSyncNoneAccessed, r, sub, "SyncBefore",
					`an earlier command list of this ExecuteCommandLists left the subresource with SyncAfter NONE: no access may follow in the scope (000 "D3D12_BARRIER_SYNC_NONE")`)
			case s.lead == leadSyncNoneFrom && x.accessed:
				report(MsgSyncNoneAccessed, r, sub, "SyncBefore",
					`SyncBefore NONE promises no earlier access to wait for in this ExecuteCommandLists scope, but an earlier command list accessed the subresource after its last barrier (000 "D3D12_BARRIER_SYNC_NONE")`)
			}
			x.accessed, x.ended = s.trailingAccess, s.ended
			if layoutless {
				x.split = s.split.event != 0
			} else {
				r.setSplitOpen(sub, s.split.event != 0)
			}
		}
	}
}

// splitOpen reports whether a submitted list left a split begun on the
// subresource (d.mu held).
func (r *Resource) splitOpen(sub uint32) bool { return r.openSplits != nil && r.openSplits[sub] }

func (r *Resource) setSplitOpen(sub uint32, open bool) {
	if r.openSplits == nil {
		if !open {
			return
		}
		r.openSplits = make([]bool, r.Desc.SubresourceCount())
	}
	r.openSplits[sub] = open
}
