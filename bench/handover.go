package bench

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hlk/reference"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
)

// handOverLayout is what the enhanced form writes, in a direct list, for
// each texture it used whose next use is on another type of queue in
// another layout: the layout change, right after the texture's last use
// in the list, from that use's sync and access to none (SyncAfter NONE:
// nothing in the submission uses it again), so the other queue's list
// needs no barrier. In the workloads the other queues' work is what the
// direct queue waits for (its fence waits gate the frame); a barrier there
// delays every fence after it, while one on the direct queue after the
// texture's last use overlaps the direct queue's remaining work
// (multi-queue on discrete: 9 cycles below legacy, against 16 above with
// the change on the compute queue). The change into the direct queue's
// layout stays before the texture's first use there (SyncBefore NONE).
//
// A copy queue cannot change layouts (000 "Copy Queues"): a texture whose
// next use is on one is changed back to the copy queue's layout by the
// list of any other type that last left it otherwise.
func (c *compiler) handOverLayout(l *scenario.ListStep) {
	if l.Type.String() == copyType {
		return
	}
	calls := map[int][]barrier{} // one call after a command for all it hands over, by the command
	for _, t := range c.order {
		if !t.texture || !t.generic() || l.Type.String() != handOverOn && !t.onCopyQueue() {
			continue
		}
		last := -1
		for i, cmd := range l.Cmds {
			if names(cmd, t.name) {
				last = i
			}
		}
		if last < 0 {
			continue
		}
		prev := t.subs[0]
		uniform := prev.set
		for _, s := range t.subs[1:] {
			uniform = uniform && s.same(prev)
		}
		next, q, ok := c.nextUse(t)
		if ok && q == copyType {
			calls[last] = append(calls[last], c.backToCopy(t, uniform, next)...)
			continue
		}
		if !uniform || !ok || q == l.Type.String() || prev.list != l.Name || l.Type.String() != handOverOn {
			continue
		}
		from, to := t.layout(prev.u, prev.listType), t.layout(next, q)
		if from == to {
			continue
		}
		calls[last] = append(calls[last], textureBarrierOf(t.name, prev.u.sync, "NONE", prev.u.access, "NO_ACCESS", from, to, -1, false))
		for i := range t.subs {
			t.subs[i] = subState{u: next, listType: q, list: l.Name, exec: c.exec, set: true}
		}
	}
	for _, i := range slices.Sorted(maps.Keys(calls)) {
		if len(calls[i]) > 0 {
			c.after[at{l.Name, i}] = append(c.after[at{l.Name, i}], callOf(calls[i]))
		}
	}
}

// backToCopy is the hand-over of a texture whose next use is on a copy
// queue: each subresource not in the copy queue's layout changed to it,
// from its last use, or from none where that was in an earlier submission
// (whose end finished it); one barrier for the whole texture when its
// subresources agree.
func (c *compiler) backToCopy(t *tracked, uniform bool, next use) []barrier {
	var out []barrier
	for i, s := range t.subs {
		from := t.layout(s.u, s.listType)
		if !s.set || from == copyLayout {
			continue
		}
		sync, access := s.u.sync, s.u.access
		if s.exec < c.exec {
			sync, access = "NONE", "NO_ACCESS"
		}
		sub := -1
		if !uniform {
			sub = i
		}
		out = append(out, textureBarrierOf(t.name, sync, "NONE", access, "NO_ACCESS", from, copyLayout, sub, false))
		for j := range t.subs {
			if uniform || j == i {
				t.subs[j] = subState{u: next, listType: copyType, list: s.list, exec: c.exec, set: true}
			}
		}
		if uniform {
			break
		}
	}
	return out
}

// handOverOn is the type of list whose hand-overs carry the layout change.
const handOverOn = "DIRECT"

// asyncFlag is how the enhanced form's lists that copy are declared.
const asyncFlag = " flags ALLOW_EXTENDED_ASYNC"

// asyncLists are the lists of a scenario declared with asyncFlag, in
// order.
func asyncLists(src string) []string {
	var out []string
	for _, line := range strings.Split(src, "\n") {
		if f := strings.Fields(line); len(f) == 5 && f[0] == "list" && strings.HasSuffix(line, asyncFlag) {
			out = append(out, f[1])
		}
	}
	return out
}

// withSyncCopies is src with list's copies synchronous: its asyncFlag
// dropped.
func withSyncCopies(src, list string) string {
	lines := strings.Split(src, "\n")
	for i, line := range lines {
		if f := strings.Fields(line); len(f) == 5 && f[0] == "list" && f[1] == list && strings.HasSuffix(line, asyncFlag) {
			lines[i] = strings.TrimSuffix(line, asyncFlag)
		}
	}
	return strings.Join(lines, "\n")
}

// runExpert runs the enhanced form as an expert settles it on a profile:
// as compiled, then, list by list, with that list's copies synchronous
// instead of extended-async, keeping each change the machine judges
// clean and cheaper (000 "Synchronous Copy, Discard and Resolve": which
// costs less depends on what the copies' implicit wait and write-back
// overlap; docs/bench.md "Synchronous copies"). The row names the lists
// left synchronous; the recording is the kept run's, for the bound, and
// the scenario its source.
func runExpert(ctx context.Context, w *Workload, prof *hwmodel.Profile) (Row, hlk.Result, *recording, string, error) {
	src, err := Source(w, Enhanced)
	if err != nil {
		return Row{}, hlk.Result{}, nil, "", err
	}
	try := func(src string) (Row, hlk.Result, *recording, error) {
		cases, err := scenario.Parse(fmt.Sprintf("%s.%s.ebs", w.Name, Enhanced), src, nil)
		if err != nil {
			return Row{}, hlk.Result{}, nil, fmt.Errorf("%s (%s): %w", w.Name, Enhanced, err)
		}
		// With the debug layer's checks across lists and submissions
		// (split halves, layouts): they change no packet.
		cases[0].Debug = true
		rec := &recording{}
		row, res := runWith(ctx, w, cases[0], prof, Enhanced, captureDriver{Driver: reference.Driver, rec: rec})
		return row, res, rec, nil
	}
	// better: a candidate is kept where it is clean, draws no message,
	// not even a warning, and costs less.
	better := func(row Row, res hlk.Result, than Row) bool {
		return row.Clean() && len(res.Observed) == 0 && row.Cycles < than.Cycles
	}
	best, bestRes, bestRec, err := try(src)
	if err != nil || !best.Clean() {
		return best, bestRes, bestRec, src, err
	}
	var sync []string
	for _, l := range asyncLists(src) {
		cand := withSyncCopies(src, l)
		row, res, rec, err := try(cand)
		if err != nil {
			return Row{}, hlk.Result{}, nil, "", err
		}
		if better(row, res, best) {
			best, bestRes, bestRec, src = row, res, rec, cand
			sync = append(sync, l)
		}
	}
	best.SyncCopyLists = sync
	sites, err := splitSites(src)
	if err != nil {
		return Row{}, hlk.Result{}, nil, "", fmt.Errorf("%s (%s): %w", w.Name, Enhanced, err)
	}
	cross, err := crossSites(src)
	if err != nil {
		return Row{}, hlk.Result{}, nil, "", fmt.Errorf("%s (%s): %w", w.Name, Enhanced, err)
	}
	sites = append(sites, cross...)
	if len(sites) == 0 {
		return best, bestRes, bestRec, src, nil
	}
	// Split barriers (000 "Split Barriers"), within a list and across
	// lists (crossSites): all of them first, then each alone dropped
	// (from all) or added (to none), keeping each change the machine
	// judges clean and cheaper.
	base := src
	// ran holds the texts run from here: a candidate the toggles reach
	// again (dropping the last kept split gives the base back; adding the
	// second of two to the first gives all) was judged against a best
	// that can only have fallen since, so running it again keeps nothing.
	ran := map[string]bool{base: true}
	var kept []splitSite
	ran[withSplits(base, sites)] = true
	if row, res, rec, err := try(withSplits(base, sites)); err != nil {
		return Row{}, hlk.Result{}, nil, "", err
	} else if better(row, res, best) {
		best, bestRes, bestRec, src = row, res, rec, withSplits(base, sites)
		kept = slices.Clone(sites)
	}
	for _, s := range sites {
		if len(sites) == 1 {
			break // the one candidate was all of them
		}
		i := slices.Index(kept, s)
		cand := append(slices.Clone(kept), s)
		if i >= 0 {
			cand = slices.Delete(slices.Clone(kept), i, i+1)
		}
		text := withSplits(base, cand)
		if ran[text] {
			continue
		}
		ran[text] = true
		row, res, rec, err := try(text)
		if err != nil {
			return Row{}, hlk.Result{}, nil, "", err
		}
		if better(row, res, best) {
			best, bestRes, bestRec, src, kept = row, res, rec, text, cand
		}
	}
	best.SyncCopyLists = sync
	best.SplitBarriers, best.CrossListSplits = splitNames(kept, false), splitNames(kept, true)
	return best, bestRes, bestRec, src, nil
}
