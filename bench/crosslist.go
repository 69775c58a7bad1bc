package bench

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

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

// accessPair finds a barrier line's "access BEFORE -> AFTER".
var accessPair = regexp.MustCompile(` access (\S+) -> (\S+)`)

// layoutPair finds a barrier line's "layout BEFORE -> AFTER".
var layoutPair = regexp.MustCompile(` layout (\S+) -> (\S+)`)

// crossTouch is the last command of a list, as submitted, that named a
// resource.
type crossTouch struct {
	list  *scenario.ListStep
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
func crossSites(src string) ([]splitSite, error) {
	cases, err := scenario.Parse("split.ebs", src, nil)
	if err != nil {
		return nil, err
	}
	if len(cases) != 1 {
		return nil, fmt.Errorf("the scenario must be one case, not %d", len(cases))
	}
	steps := cases[0].Steps
	lines := strings.Split(src, "\n")
	lists := map[string]*scenario.ListStep{}
	runs := map[string]int{}
	textures := map[string]bool{} // committed, not simultaneous-access
	for _, st := range steps {
		switch s := st.(type) {
		case *scenario.ResourceStep:
			textures[s.Name] = s.Desc.ResourceType != ddi.ResourceTypeBuffer && s.Heap == "" &&
				s.Desc.Flags&ddi.ResourceFlagSimultaneousAccess == 0
		case *scenario.ListStep:
			if s.Reset || lists[s.Name] != nil {
				runs[s.Name] += 2 // a second recording: its halves would not pair
			}
			lists[s.Name] = s
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
			l := lists[name]
			if l == nil {
				continue
			}
			for i, cmd := range l.Cmds {
				for _, b := range cmd.Barriers {
					if site, ok := crossSite(lines, l, i, b, last, textures, runs, x.Queue, exec, work[x.Queue]); ok {
						sites = append(sites, site)
					}
				}
				isWork := len(cmd.Barriers) == 0 && len(cmd.Legacy) == 0
				if isWork {
					work[x.Queue]++
				}
				here := crossTouch{list: l, cmd: i, queue: x.Queue, exec: exec, work: work[x.Queue]}
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
	return sites, nil
}

// crossSite judges one barrier, the i-th command of list l on queue q in
// ExecuteCommandLists exec, after work work commands of the queue
// (crossSites).
func crossSite(lines []string, l *scenario.ListStep, i int, b scenario.BarrierSpec, last map[string]crossTouch,
	textures map[string]bool, runs map[string]int, q string, exec, work int) (splitSite, bool) {
	name := b.Res.Res
	if !b.HasRes || !textures[name] || b.Line < 1 || b.Line > len(lines) || runs[l.Name] != 1 {
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
	text := strings.TrimSpace(lines[b.Line-1])
	s, a, lay := syncPair.FindStringSubmatchIndex(text), accessPair.FindStringSubmatchIndex(text), layoutPair.FindStringSubmatchIndex(text)
	if !strings.HasPrefix(text, "texture ") || s == nil || a == nil || lay == nil ||
		strings.Contains(text, "DISCARD") || strings.HasSuffix(text, `\`) {
		return splitSite{}, false
	}
	syncBefore, syncAfter := text[s[2]:s[3]], text[s[4]:s[5]]
	layoutBefore, layoutAfter := text[lay[2]:lay[3]], text[lay[4]:lay[5]]
	crossesExecute := prev.exec < exec
	if layoutBefore == layoutAfter || syncAfter == "NONE" || syncAfter == "SPLIT" || syncBefore == "SPLIT" ||
		crossesExecute && (layoutBefore == "COMMON" || layoutAfter == "COMMON") {
		return splitSite{}, false
	}
	// The begin, right after the use in its list, waits for what that
	// list did to the texture since its last barrier there and makes it
	// available (000 "Sequential Barriers": its SyncBefore holds that
	// barrier's SyncAfter). Where the halves cross a submission the
	// compiled barrier's SyncBefore is NONE, the submission's end having
	// finished the use; the begin runs before that end.
	syncBefore, accessBefore, ok := sinceBarrier(lines, prev.list, prev.cmd, name)
	if !ok {
		return splitSite{}, false
	}
	if layoutBefore == "UNDEFINED" {
		accessBefore = "NO_ACCESS" // the only access UNDEFINED allows: the contents are not kept
	}
	begin := text[:s[0]] + " sync " + syncBefore + " -> SPLIT" + text[s[1]-1:a[0]] + " access " + accessBefore + text[a[3]:]
	end := text[:s[0]] + " sync SPLIT -> " + syncAfter + text[s[1]-1:a[0]] + " access " + accessBefore + text[a[3]:]
	at := prev.cmd + 1
	var line int
	if at < len(prev.list.Cmds) {
		line = prev.list.Cmds[at].Line
	} else {
		line = listEnd(lines, use.Line)
	}
	if line < 1 {
		return splitSite{}, false
	}
	return splitSite{line: b.Line, begin: line, res: name, cross: true, beginText: begin, endText: end}, true
}

// sinceBarrier is what list l did to a texture up to its command at: the
// syncs and accesses of its uses since the list's last barrier on it, and
// that barrier's SyncAfter and AccessAfter (000 "Sequential Barriers"),
// each once, joined as the language writes flags. It is not ok where a
// use's role has no row in the table or where that barrier is global,
// split, or ends the accesses.
func sinceBarrier(lines []string, l *scenario.ListStep, at int, name string) (sync, access string, ok bool) {
	var syncs, accesses []string
	add := func(s, a string) {
		for _, f := range strings.Split(s, "|") {
			addOnce(&syncs, f)
		}
		for _, f := range strings.Split(a, "|") {
			addOnce(&accesses, f)
		}
	}
	for j := at; j >= 0; j-- {
		cmd := l.Cmds[j]
		for _, b := range cmd.Barriers {
			if !b.HasRes || b.Line < 1 || b.Line > len(lines) {
				return "", "", false
			}
		}
		if i := slices.IndexFunc(cmd.Barriers, func(b scenario.BarrierSpec) bool { return b.Res.Res == name }); i >= 0 {
			text := lines[cmd.Barriers[i].Line-1]
			s, a := syncPair.FindStringSubmatch(text), accessPair.FindStringSubmatch(text)
			if s == nil || a == nil || s[2] == "SPLIT" || s[2] == "NONE" {
				return "", "", false
			}
			add(s[2], a[2])
			break
		}
		if len(cmd.Legacy) > 0 {
			return "", "", false
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
					return "", "", false
				}
				add(u.sync, u.access)
			}
		}
	}
	if len(syncs) == 0 {
		return "", "", false
	}
	return strings.Join(syncs, "|"), strings.Join(accesses, "|"), true
}

// listEnd is the line (1-based) of the "end" that closes the list whose
// command is on line from, 0 if there is none.
func listEnd(lines []string, from int) int {
	for i := from; i < len(lines); i++ { // lines[i] is line i+1
		if strings.TrimRight(lines[i], " \t") == "end" {
			return i + 1
		}
	}
	return 0
}
