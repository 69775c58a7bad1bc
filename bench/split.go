package bench

import (
	"maps"
	"slices"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/scenario"
)

// Splits are edits of the enhanced scenario's syntax tree (package
// hlk/scenario): a site is found from the tree's statements, commands and
// barrier values, its halves are copies of the barrier's
// scenario.BarrierSpec with their syncs set, the begin goes into its list
// as a Barrier call of its own (a scenario.Cmd), and the candidate is
// printed with scenario.Format.

// splitSite is one barrier of the enhanced form that may be split (000
// "Split Barriers"): its begin (SyncAfter SPLIT) right after the
// resource's last use before it, its end (SyncBefore SPLIT) where the
// single barrier was, with independent work between.
type splitSite struct {
	// list, cmd, barrier locate the barrier, which becomes the end:
	// Steps[list] (a list), its command cmd, that call's barrier.
	list, cmd, barrier int
	// beginList, beginAt: the begin's call goes before command beginAt
	// of Steps[beginList] (at its end when beginAt is its length).
	beginList, beginAt int
	res                string // the resource, for the row
	// cross: the begin lies in an earlier command list than the end
	// (crossSites).
	cross      bool
	begin, end scenario.BarrierSpec
}

// syncs are a resource barrier's syncs (type TEXTURE or BUFFER).
func syncs(b *scenario.BarrierSpec) (before, after ddi.BarrierSync) {
	if b.Barrier.Type == ddi.BarrierTypeTexture {
		t := b.Barrier.Texture()
		return t.SyncBefore, t.SyncAfter
	}
	x := b.Barrier.Buffer()
	return x.SyncBefore, x.SyncAfter
}

// withSyncs is b with its syncs set.
func withSyncs(b scenario.BarrierSpec, before, after ddi.BarrierSync) scenario.BarrierSpec {
	if b.Barrier.Type == ddi.BarrierTypeTexture {
		t := b.Barrier.Texture()
		t.SyncBefore, t.SyncAfter = before, after
		return b
	}
	x := b.Barrier.Buffer()
	x.SyncBefore, x.SyncAfter = before, after
	return b
}

// splitSites are the barriers of an enhanced scenario that independent
// work separates from their resource's last use: a barrier on a committed
// resource (a placed one shares its memory with others, which may run
// between), in a list after a use in the same list (SyncBefore NONE is a
// use in an earlier submission, and a barrier that ends the accesses,
// SyncAfter NONE, has nothing to meet), with at least one command between
// the last command or barrier that names the resource and the barrier.
// Nothing touches the resource between the halves, as the spec asks.
func splitSites(sc *scenario.Scenario) []splitSite {
	placed := map[string]bool{}
	var sites []splitSite
	for li, st := range sc.Steps {
		switch s := st.(type) {
		case *scenario.ResourceStep:
			placed[s.Name] = s.Heap != ""
		case *scenario.ListStep:
			for i, cmd := range s.Cmds {
				for k, b := range cmd.Barriers {
					name := b.Res.Res
					typ := b.Barrier.Type
					if !b.HasRes || name == "" || placed[name] || typ != ddi.BarrierTypeTexture && typ != ddi.BarrierTypeBuffer ||
						typ == ddi.BarrierTypeTexture && b.Barrier.Texture().Flags&ddi.TextureBarrierFlagDiscard != 0 {
						continue
					}
					before, after := syncs(&b)
					if before == ddi.SyncNone || before == ddi.SyncSplit || after == ddi.SyncNone || after == ddi.SyncSplit {
						continue
					}
					last := -1
					for j := i - 1; j >= 0 && last < 0; j-- {
						if touches(s.Cmds[j], name) {
							last = j
						}
					}
					if last < 0 {
						continue
					}
					work := 0
					for _, between := range s.Cmds[last+1 : i] {
						if len(between.Barriers) == 0 && len(between.Legacy) == 0 {
							work++
						}
					}
					if work == 0 {
						continue
					}
					sites = append(sites, splitSite{list: li, cmd: i, barrier: k, beginList: li, beginAt: last + 1, res: name,
						begin: withSyncs(b, before, ddi.SyncSplit), end: withSyncs(b, ddi.SyncSplit, after)})
				}
			}
		}
	}
	return sites
}

// touches reports whether a command names a resource: in a view, or as a
// barrier's resource.
func touches(cmd scenario.Cmd, name string) bool {
	if names(cmd, name) {
		return true
	}
	for _, b := range cmd.Barriers {
		if !b.HasRes || b.Res.Res == name {
			return true // a global barrier touches everything
		}
	}
	return false
}

// withSplits is sc with the sites' barriers split: each end in its
// barrier's place, each begin in a Barrier call of its own before the
// command its site names, the begins before one command in one call, in
// the sites' order. sc is not changed: the lists edited are copies.
func withSplits(sc *scenario.Scenario, sites []splitSite) *scenario.Scenario {
	out := *sc
	out.Steps = slices.Clone(sc.Steps)
	type at struct{ list, cmd int }
	begins := map[at][]scenario.BarrierSpec{}
	edited := map[int]*scenario.ListStep{}
	copied := map[at]bool{}
	list := func(i int) *scenario.ListStep {
		if l, ok := edited[i]; ok {
			return l
		}
		l := *sc.Steps[i].(*scenario.ListStep)
		l.Cmds = slices.Clone(l.Cmds)
		edited[i] = &l
		out.Steps[i] = &l
		return &l
	}
	for _, s := range sites {
		l := list(s.list)
		cmd := &l.Cmds[s.cmd]
		if !copied[at{s.list, s.cmd}] { // the call's barriers are sc's until copied
			cmd.Barriers = slices.Clone(cmd.Barriers)
			copied[at{s.list, s.cmd}] = true
		}
		cmd.Barriers[s.barrier] = s.end
		list(s.beginList)
		begins[at{s.beginList, s.beginAt}] = append(begins[at{s.beginList, s.beginAt}], s.begin)
	}
	for i, l := range edited {
		cmds := make([]scenario.Cmd, 0, len(l.Cmds)+len(begins))
		for j := 0; j <= len(l.Cmds); j++ {
			if bs, ok := begins[at{i, j}]; ok {
				cmds = append(cmds, scenario.Cmd{Op: "barrier", Barriers: bs})
			}
			if j < len(l.Cmds) {
				cmds = append(cmds, l.Cmds[j])
			}
		}
		l.Cmds = cmds
	}
	return &out
}

// splitNames are the resources of the kept split sites within a list
// (cross false) or across lists (cross true), in order, once.
func splitNames(sites []splitSite, cross bool) []string {
	set := map[string]bool{}
	for _, s := range sites {
		if s.cross == cross {
			set[s.res] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}
