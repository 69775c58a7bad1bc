package bench

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/ebref/ebref/hlk/scenario"
)

// splitSite is one barrier of the enhanced form that may be split (000
// "Split Barriers"): its begin (SyncAfter SPLIT) right after the
// resource's last use before it in the same list, its end (SyncBefore
// SPLIT) where the single barrier was, with independent work between.
type splitSite struct {
	line  int    // the barrier's line (1-based): it becomes the end
	begin int    // the line the begin's call goes before
	res   string // the resource, for the row
	// cross: the begin lies in an earlier command list than the end
	// (crossSites); beginText and endText are then the halves as
	// written, where within a list withSplits derives them from the
	// barrier's line.
	cross              bool
	beginText, endText string
}

// syncPair finds a barrier line's "sync BEFORE -> AFTER".
var syncPair = regexp.MustCompile(` sync (\S+) -> (\S+) `)

// splitSites are the barriers of an enhanced scenario that independent
// work separates from their resource's last use: a barrier on a committed
// resource (a placed one shares its memory with others, which may run
// between), in a list after a use in the same list (SyncBefore NONE is a
// use in an earlier submission, and a barrier that ends the accesses,
// SyncAfter NONE, has nothing to meet), with at least one command between
// the last command or barrier that names the resource and the barrier.
// Nothing touches the resource between the halves, as the spec asks.
func splitSites(src string) ([]splitSite, error) {
	cases, err := scenario.Parse("split.ebs", src, nil)
	if err != nil {
		return nil, err
	}
	if len(cases) != 1 {
		return nil, fmt.Errorf("the scenario must be one case, not %d", len(cases))
	}
	lines := strings.Split(src, "\n")
	placed := map[string]bool{}
	var sites []splitSite
	for _, st := range cases[0].Steps {
		switch s := st.(type) {
		case *scenario.ResourceStep:
			placed[s.Name] = s.Heap != ""
		case *scenario.ListStep:
			for i, cmd := range s.Cmds {
				for _, b := range cmd.Barriers {
					name := b.Res.Res
					if !b.HasRes || name == "" || placed[name] || b.Line < 1 || b.Line > len(lines) {
						continue
					}
					text := lines[b.Line-1]
					m := syncPair.FindStringSubmatch(text)
					if m == nil || m[1] == "NONE" || m[1] == "SPLIT" || m[2] == "NONE" || m[2] == "SPLIT" ||
						strings.Contains(text, "DISCARD") || strings.HasSuffix(strings.TrimSpace(text), `\`) {
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
					sites = append(sites, splitSite{line: b.Line, begin: s.Cmds[last+1].Line, res: name})
				}
			}
		}
	}
	return sites, nil
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

// withSplits is src with the sites' barriers split: each end keeps its
// line with SyncBefore SPLIT, each begin (SyncAfter SPLIT) goes in a call
// of its own before its begin line, the begins of one line in one call.
func withSplits(src string, sites []splitSite) string {
	lines := strings.Split(src, "\n")
	begins := map[int][]string{}
	for _, s := range sites {
		text := lines[s.line-1]
		if s.cross {
			lines[s.line-1] = text[:len(text)-len(strings.TrimLeft(text, " "))] + s.endText
			begins[s.begin] = append(begins[s.begin], s.beginText)
			continue
		}
		m := syncPair.FindStringSubmatchIndex(text)
		if m == nil {
			continue
		}
		before, after := text[m[2]:m[3]], text[m[4]:m[5]]
		begin := text[:m[0]] + " sync " + before + " -> SPLIT " + text[m[1]:]
		lines[s.line-1] = text[:m[0]] + " sync SPLIT -> " + after + " " + text[m[1]:]
		begins[s.begin] = append(begins[s.begin], strings.TrimSpace(begin))
	}
	var b strings.Builder
	for i, line := range lines {
		if calls, ok := begins[i+1]; ok {
			b.WriteString("  call\n")
			for _, c := range calls {
				b.WriteString("    " + c + "\n")
			}
			b.WriteString("  end\n")
		}
		b.WriteString(line)
		if i < len(lines)-1 {
			b.WriteString("\n")
		}
	}
	return b.String()
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
