package bench

import (
	"maps"
	"slices"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/scenario"
)

// Split barriers across command lists (000 "Split Barriers"): a split's
// begin may lie in one command list and its end in a later one, even in a
// later ExecuteCommandLists call. Across ExecuteCommandLists such a split
// is a layout change only: the boundary flushes the caches, so its
// accesses do nothing, and on a buffer or a simultaneous-access texture,
// which have no layout, it serves no purpose (the debug layer warns of an
// unmatched half there); the debug layer's list of checks (000 "Barrier
// API Call Validation") keeps buffer and COMMON-layout splits from
// crossing an ExecuteCommandLists boundary. The driver holds the split
// open across lists and submissions and ends one begun in another list by
// waiting for all earlier work (umd/crosslist.go, errata
// E-SPLIT-ACROSS-LISTS).

// crossTouch is the last command of a list, as submitted, that named a
// resource.
type crossTouch struct {
	list  *scenario.ListStep
	step  int    // its index in the scenario's Steps
	cmd   int    // its index in list.Cmds
	queue string // the queue the list ran on
	exec  int    // the ExecuteCommandLists call, counted from 0
	work  int    // the queue's work commands up to and including it
}

// crossSites are the barriers of an enhanced scenario that a split across
// command lists may serve: a layout change of a committed texture that is
// not simultaneous-access, the first command of its list to name the
// texture, whose last use before it is a work command in an earlier list
// on the same queue (of the same or an earlier ExecuteCommandLists), with
// at least one work command of that queue after the use or before the
// barrier. The begin goes right after the use, in the use's list; the end
// stays where the barrier was. Where the halves cross an
// ExecuteCommandLists boundary, neither layout may be COMMON, and the
// begin waits for the use's sync and makes its accesses available (the
// compiled barrier's SyncBefore is NONE there: the submission's end
// finished them), which the layout change needs on the use's list, where
// the boundary has not come yet; the end repeats the begin's accesses and
// layouts, as every end must. A list run more than once, or reset, holds
// no half. Nothing names the texture between the halves: the use was the
// last command that did, on any queue.
func crossSites(sc *scenario.Scenario) []splitSite {
	steps := sc.Steps
	lists := map[string]int{} // a list's (last) recording, by its index in steps
	runs := map[string]int{}
	textures := map[string]bool{} // committed, not simultaneous-access
	for i, st := range steps {
		switch s := st.(type) {
		case *scenario.ResourceStep:
			textures[s.Name] = s.Desc.ResourceType != ddi.ResourceTypeBuffer && s.Heap == "" &&
				s.Desc.Flags&ddi.ResourceFlagSimultaneousAccess == 0
		case *scenario.ListStep:
			if _, again := lists[s.Name]; s.Reset || again {
				runs[s.Name] += 2 // a second recording: its halves would not pair
			}
			lists[s.Name] = i
		case *scenario.ExecuteStep:
			for _, l := range s.Lists {
				runs[l]++
			}
		}
	}
	last := map[string]crossTouch{}
	work := map[string]int{} // per queue
	exec := -1
	var sites []splitSite
	for _, st := range steps {
		x, ok := st.(*scenario.ExecuteStep)
		if !ok {
			continue
		}
		exec++
		for _, name := range x.Lists {
			li, ok := lists[name]
			if !ok {
				continue
			}
			l := steps[li].(*scenario.ListStep)
			for i, cmd := range l.Cmds {
				for k, b := range cmd.Barriers {
					if site, ok := crossSite(l, i, b, last, textures, runs, x.Queue, exec, work[x.Queue]); ok {
						site.list, site.cmd, site.barrier = li, i, k
						sites = append(sites, site)
					}
				}
				isWork := len(cmd.Barriers) == 0 && len(cmd.Legacy) == 0
				if isWork {
					work[x.Queue]++
				}
				here := crossTouch{list: l, step: li, cmd: i, queue: x.Queue, exec: exec, work: work[x.Queue]}
				for _, views := range cmd.Views {
					for _, v := range views {
						last[v.Res] = here
					}
				}
				for _, b := range cmd.Barriers {
					if b.HasRes {
						last[b.Res.Res] = here
						continue
					}
					for res := range last { // a global barrier touches everything
						last[res] = here
					}
				}
				for _, b := range cmd.Legacy {
					last[b.Res] = here
				}
			}
		}
	}
	return sites
}

// crossSite judges one barrier, the i-th command of list l on queue q in
// ExecuteCommandLists exec, after work work commands of the queue
// (crossSites).
func crossSite(l *scenario.ListStep, i int, b scenario.BarrierSpec, last map[string]crossTouch,
	textures map[string]bool, runs map[string]int, q string, exec, work int) (splitSite, bool) {
	name := b.Res.Res
	if !b.HasRes || !textures[name] || runs[l.Name] != 1 {
		return splitSite{}, false
	}
	prev, ok := last[name]
	if !ok || prev.list == l || prev.queue != q || runs[prev.list.Name] != 1 || work == prev.work {
		return splitSite{}, false
	}
	use := prev.list.Cmds[prev.cmd]
	if len(use.Barriers) > 0 || len(use.Legacy) > 0 {
		return splitSite{}, false // a barrier last named it: its halves would not be the use's
	}
	if b.Barrier.Type != ddi.BarrierTypeTexture {
		return splitSite{}, false
	}
	t := *b.Barrier.Texture()
	crossesExecute := prev.exec < exec
	if t.Flags&ddi.TextureBarrierFlagDiscard != 0 || t.LayoutBefore == t.LayoutAfter ||
		t.SyncAfter == ddi.SyncNone || t.SyncAfter == ddi.SyncSplit || t.SyncBefore == ddi.SyncSplit ||
		crossesExecute && (t.LayoutBefore == ddi.LayoutCommon || t.LayoutAfter == ddi.LayoutCommon) {
		return splitSite{}, false
	}
	// The begin, right after the use in its list, waits for what that
	// list did to the texture since its last barrier there and makes it
	// available (000 "Sequential Barriers": its SyncBefore holds that
	// barrier's SyncAfter). Where the halves cross a submission the
	// compiled barrier's SyncBefore is NONE, the submission's end having
	// finished the use; the begin runs before that end.
	syncBefore, accessBefore, ok := sinceBarrier(prev.list, prev.cmd, name)
	if !ok {
		return splitSite{}, false
	}
	if t.LayoutBefore == ddi.LayoutUndefined {
		accessBefore = ddi.AccessNoAccess // the only access UNDEFINED allows: the contents are not kept
	}
	begin, end := b, b
	bt, et := begin.Barrier.Texture(), end.Barrier.Texture()
	*bt, *et = t, t
	bt.SyncBefore, bt.SyncAfter, bt.AccessBefore = syncBefore, ddi.SyncSplit, accessBefore
	et.SyncBefore, et.SyncAfter, et.AccessBefore = ddi.SyncSplit, t.SyncAfter, accessBefore
	return splitSite{beginList: prev.step, beginAt: prev.cmd + 1, res: name, cross: true, begin: begin, end: end}, true
}

// sinceBarrier is what list l did to a texture up to its command at: the
// syncs and accesses of its uses since the list's last barrier on it, and
// that barrier's SyncAfter and AccessAfter (000 "Sequential Barriers"),
// joined. It is not ok where a use's role has no row in the table or
// where that barrier is global, split, or ends the accesses.
func sinceBarrier(l *scenario.ListStep, at int, name string) (sync ddi.BarrierSync, access ddi.BarrierAccess, ok bool) {
	for j := at; j >= 0; j-- {
		cmd := l.Cmds[j]
		for _, b := range cmd.Barriers {
			if !b.HasRes {
				return 0, 0, false
			}
		}
		if i := slices.IndexFunc(cmd.Barriers, func(b scenario.BarrierSpec) bool { return b.Res.Res == name }); i >= 0 {
			b := &cmd.Barriers[i]
			if b.Barrier.Type != ddi.BarrierTypeTexture && b.Barrier.Type != ddi.BarrierTypeBuffer {
				return 0, 0, false
			}
			_, after := syncs(b)
			if after == ddi.SyncSplit || after == ddi.SyncNone {
				return 0, 0, false
			}
			access |= accessAfter(b)
			sync |= after
			ok = true
			break
		}
		if len(cmd.Legacy) > 0 {
			return 0, 0, false
		}
		if !names(cmd, name) {
			continue
		}
		roles := uses[cmd.Op]
		for _, role := range slices.Sorted(maps.Keys(cmd.Views)) {
			for _, v := range cmd.Views[role] {
				if v.Res != name {
					continue
				}
				u, known := roles[role]
				if !known {
					return 0, 0, false
				}
				sync |= u.of.Sync
				access |= u.of.Access
				ok = true
			}
		}
	}
	return sync, access, ok
}

// accessAfter is a resource barrier's AccessAfter (type TEXTURE or
// BUFFER).
func accessAfter(b *scenario.BarrierSpec) ddi.BarrierAccess {
	if b.Barrier.Type == ddi.BarrierTypeTexture {
		return b.Barrier.Texture().AccessAfter
	}
	return b.Barrier.Buffer().AccessAfter
}
